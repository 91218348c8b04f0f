#include "conformance/check/fixed_lines.hpp"

#include <iterator>
#include <vector>

namespace acemq::conformance::generator {
namespace {

// The texts, each a number of fixed meaning whatever a port's reader makes
// of it: the core's answer to its echo line is the one a port must give.
constexpr NumberText kNumberTexts[] = {
    {"1e22", "10^22, the greatest power of ten a double holds exactly: the fast path's last"},
    {"1e-22", "divided by 10^22 on the fast path, the last power it holds"},
    {"999999999999999e22", "15 digits times 10^22: the fast path's largest, one rounding"},
    {"123456789012345e-22", "15 digits over 10^22: the fast path's smallest"},
    {"1e23",
     "10^23, the first power of ten no double holds: 9.999999999999999e22, which a fast path "
     "taking 10^23 from a table of powers misses"},
    {"1e-23", "one past the fast path's divisions: no 10^-23 in a table of 23 powers"},
    {"99e39",
     "2 digits times 10^39: 99e17 is exact, so a fast path may take 99e17 * 10^22 (up to "
     "10^(22 + 15 - 2)), and must not go further"},
    {"1E5", "a capital E on the fast path: 100000.0, not 1.0 nor 1e-05"},
    {"1234567890123456e22", "16 digits: one past the fast path's 15, so the slow path's"},
    {"1.79769313486231580793728971405303e308",
     "DBL_MAX in 34 digits: more than one 18-digit chunk of a big integer, and still DBL_MAX"},
    {"1.7976931348623158e308", "below DBL_MAX's halfway to 2^1024: DBL_MAX"},
    {"1.7976931348623159e308", "above that halfway: beyond binary64, the line malformed"},
    {"1e-400", "below half the least subnormal: +0.0 (the protocol reads it so)"},
    {"-1e-400", "underflows to -0.0: the sign survives"},
    {"2.4703282292062327e-324", "just below 2^-1075, half the least subnormal: rounds to 0"},
    {"2.4703282292062328e-324", "just above 2^-1075: rounds up to 5e-324"},
    {"1e-324",
     "0.4 of the least subnormal, above the -330 a reader may cut at: 0, where a rounding that "
     "drops 65 bits or more must still see the whole quotient"},
    {"3e-324", "0.6 of the least subnormal: 5e-324, one bit kept of 64 dropped"},
    {"0e311", "zero with an exponent past binary64's range: still 0, not beyond range"},
    {"0e100000000", "zero with a 9-digit exponent: 0"},
    {"1e-100000000", "an exponent of 10^8 below: 0, at once, not 10^100000000 computed"},
    {"1e100000000",
     "an exponent of 10^8 above: beyond binary64, the line malformed, at once, not "
     "10^100000000 computed"},
    {"-.5", "no digit before the point: no JSON number, the line malformed (a field, not the id)"},
    {"02", "a leading zero: no JSON number, the line malformed (a field, not the id)"},
    {"1e309", "past DBL_MAX before any rounding: beyond binary64, the line malformed"},
    {"359538626972463171566659490484205888441731830604268484209603860138177644098265714079357495299"
     "994743117450400296564281268605345316666357025123504919310979945059676795425573868952576074447"
     "063805651217558682355075624409517641965305796293773945477302529882424679128951808944289957498"
     "179224397878236507528398635008",
     "2^1025 - 2^970 as an integer of 309 digits, above 2^1024 before rounding: beyond binary64, "
     "the line malformed (a reader that lets the exponent reach 1024 makes a double of it)"},
    {"9007199254740993", "2^53 + 1, a tie between two integers: 2^53, the even one"},
    {"9007199254740995", "2^53 + 3, a tie: 2^53 + 4, the even one, up"},
    {"9007199254740993.0000000000000000001",
     "a hair above the tie 2^53 + 1 at the 36th digit: 2^53 + 2, which a reader keeping 19 "
     "digits misses"},
    {"554273707078312674664717321325866673797921890809448086656630039215087890625e-80",
     "an exact double's value whose bits past the 53rd are 100...001: above the halfway point "
     "by the quotient's last bit, so it rounds up (5.542737070783127e-06)"},
    // Integral doubles from 2^64 to 2^110 beside short decimals: their
    // shortest digits end in zeros or sit a unit from a neighbour's, and a
    // writer's power-of-5 and trailing-zero tests choose between them. Each
    // why names what a one-slip writer measured here printed instead.
    {"38664703083136434000.0", "near 2^65: 38664703083136430000.0, the neighbour's digits"},
    {"-69741824662760956000.0", "near -2^66: -69741824662760960000.0, one digit too few"},
    {"65140065010286854000.0", "near 2^66: 65140065010286850000.0"},
    {"-19256312500000002000.0", "near -2^64, a unit above -1.92563125e19: its digits, not those"},
    {"1.0000000000000001e23",
     "the double just above 10^23's tie, 100000000000000008388608: 1e23, its neighbour"},
    {"2.8725888890909492e31", "near 2^104: 2.872588889090949e31, one digit too few"},
    {"-7.24189468164096e29", "near -2^99: -7.241894681641e29, digits removed by 11"},
    {"-4.2158862106624e29", "near -2^98: no answer, a digit-removing loop that never ends"},
    {"-1.441249290616832e30", "near -2^100: -1.44124929061683e30, a remainder lost"},
    {"-1.0900008521957377e33", "near -2^110: -1.090000852195738e33, digits removed by 9"},
};

// Whole lines, ID where the id goes: each form is one a drawn request never
// takes, and the mutants of the .NET port's reader that it alone told apart.
struct WholeLine {
  std::string_view name;
  OpKind op;
  std::string_view line;
};
constexpr WholeLine kWholeLines[] = {
    // The reader skips blanks again before each element, so a slip that
    // forgets the blanks right after [ or { shows only when the container
    // is empty.
    {"a blank inside an empty array", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":1,"calls":[ ]})"},
    {"a blank inside an empty object", OpKind::schedule,
     R"({"id":ID,"op":"schedule","policy":{ }})"},
    {"an id of an empty array and an empty object with blanks", OpKind::schedule,
     R"({"id":[ { } ],"op":"schedule","policy":{}})"},
    // -0 is the one negative integer literal a field that must be at least
    // 0 takes: it is the integer 0.
    {"-0 as the seed", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":-0,"calls":[]})"},
    {"-0 as the skip", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":1,"skip":-0,"calls":[]})"},
    // Past int64 a reader that wraps modulo 2^64, or says "fits" and leaves
    // 0, makes a valid seed, skip or attempt of a request the core refuses.
    {"2^64 as the seed", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":18446744073709551616,"calls":[]})"},
    {"2^64 as the skip", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":1,"skip":18446744073709551616,"calls":[]})"},
    {"2^64 + 2 as max_attempts", OpKind::schedule,
     R"({"id":ID,"op":"schedule","policy":{"max_attempts":18446744073709551618}})"},
    {"10^20 as the seed", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":100000000000000000000,"calls":[]})"},
    {"2^63 as the seed", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":9223372036854775808,"calls":[]})"},
    {"-2^63 - 1 as the seed", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":-9223372036854775809,"calls":[]})"},
    {"-2^63 - 1 as the skip", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":1,"skip":-9223372036854775809,"calls":[]})"},
    {"-2^63 - 1 as the attempt", OpKind::next_delay,
     R"({"id":ID,"op":"next_delay","policy":{},"attempt":-9223372036854775809,"jitter":false})"},
    {"-10^19 + 1 as the attempt", OpKind::next_delay,
     R"({"id":ID,"op":"next_delay","policy":{},"attempt":-9999999999999999999,"jitter":false})"},
    {"2^64 as the attempt", OpKind::next_delay,
     R"({"id":ID,"op":"next_delay","policy":{},"attempt":18446744073709551616,"jitter":false})"},
    // +Infinity times a factor of 0 is NaN, the one NaN valid input makes:
    // the contract keeps the infinite delay (drawn, it takes three
    // regimes at once, about once a run).
    {"+Infinity jittered by a factor of 0", OpKind::jittered,
     R"({"id":ID,"op":"jittered","policy":{"jitter_factor":1},"delay":"Infinity","r":0})"},
    // An empty object where the calls array belongs: a reader that takes
    // any container for the array iterates it as no calls, and answers [].
    {"an empty object as replay's calls", OpKind::replay,
     R"({"id":ID,"op":"replay","policy":{},"seed":1,"calls":{}})"},
    // A vector file's line is a request with its answer beside it; a port
    // must take those members and not read them.
    {"an expect member", OpKind::schedule, R"({"id":ID,"op":"schedule","policy":{},"expect":[]})"},
    {"an expect_error member", OpKind::schedule,
     R"({"id":ID,"op":"schedule","policy":{},"expect_error":true})"},
};

// 1 + 2^-53, the tie between 1 and the double above it, written out and
// padded with zeros to 800 significant digits, then a 1 at the 801st: just
// above the tie, so 1.0000000000000002. A reader that keeps 800 digits
// and drops the rest without a sticky digit (or with one that counts for
// nothing) reads the tie itself, and rounds it to even: 1.0.
std::string tie_and_a_sticky_801st_digit() {
  std::string digits = "100000000000000011102230246251565404236316680908203125";
  digits.resize(800, '0');
  digits += '1';
  return digits.substr(0, 1) + "." + digits.substr(1);
}

}  // namespace

std::span<const NumberText> number_texts() {
  static const std::string kSticky = tie_and_a_sticky_801st_digit();
  static const std::vector<NumberText> kAll = [] {
    std::vector<NumberText> all(std::begin(kNumberTexts), std::end(kNumberTexts));
    all.push_back({kSticky,
                   "1 + 2^-53, the tie, in 800 digits, then a 1 at the 801st: 1.0000000000000002, "
                   "where a reader without a sticky digit reads the tie, 1.0"});
    return all;
  }();
  return kAll;
}

FixedLine fixed_line_in_turn(std::size_t turn, std::int64_t id) {
  turn %= fixed_line_count();
  const std::string id_text = std::to_string(id);
  const std::span<const NumberText> texts = number_texts();
  if (turn < texts.size()) {
    const NumberText& row = texts[turn];
    std::string line = R"({"id":)" + id_text + R"(,"op":"jittered","policy":{},"delay":)";
    line.append(row.text).append(R"(,"r":0.5})");
    return {std::move(line), row.text, OpKind::jittered, true, turn};
  }
  const std::size_t row = turn - texts.size();
  const WholeLine& form = kWholeLines[row];
  std::string line(form.line);
  if (const std::size_t at = line.find("ID"); at != std::string::npos) line.replace(at, 2, id_text);
  return {std::move(line), form.name, form.op, false, row};
}

std::size_t fixed_line_count() { return number_texts().size() + std::size(kWholeLines); }

}  // namespace acemq::conformance::generator
