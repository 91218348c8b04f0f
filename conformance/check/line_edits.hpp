// Edits of a request's line as text, where writing JSON cannot make the
// line wanted: an id in a form the JSON writer would not choose, or not
// JSON at all, and a line padded to an exact length.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace acemq::conformance::generator {

// The valid line with its id (the first member, a number) written as
// `raw`: an id form the writer would not write (escapes, nesting, a
// number's spelling), or a bad string, which is then the line's only fault,
// so a port that misses it answers the request instead of refusing the
// line. (In an unknown member it would be refused for the member anyway.)
std::string with_raw_id(const std::string& valid, std::string_view raw);

// A line of exactly `bytes` bytes: the valid line with spaces (JSON
// whitespace) after its opening brace, so that only its length can make it
// an error. A line already that long is unchanged.
std::string padded_to(const std::string& valid, std::size_t bytes);

// The line with its numbers past the id edited: each run of "-+.eE" and
// digits that starts a value (after a colon, a comma or an opening bracket)
// outside a string, past the id (the first member: it is echoed, not read
// as a field), is given to `edit` with how many runs it replaced before;
// its text replaces the run, nullopt keeps it. Strings are skipped whole,
// escaped quotes included. The layouts that write a line's numbers another
// way share this one walk.
struct EditedNumbers {
  std::string line;
  std::size_t replaced = 0;
};
EditedNumbers edit_numbers_past_id(
    const std::string& line,
    const std::function<std::optional<std::string>(std::string_view number, std::size_t replaced)>&
        edit);

}  // namespace acemq::conformance::generator
