#include "conformance/port_stats/sample_answer.hpp"

#include <cstddef>
#include <optional>
#include <variant>

#include <nlohmann/json.hpp>

#include "conformance/port_stats/echo.hpp"
#include "conformance/protocol/answer_reader.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

// The draws, kept in the caller's buffer as the reader meets them: a chunk
// of 65,536 is read with no second copy. Beyond the buffer they are only
// counted.
class Draws final : public ResultItems {
 public:
  explicit Draws(std::span<double> out) : out_(out) {}

  void restart() override {
    count_ = 0;
    first_null_.reset();
  }
  void add(std::optional<double> item) override {
    if (count_ < out_.size()) {
      if (item) {
        out_[count_] = *item;
      } else if (!first_null_) {
        first_null_ = count_;
      }
    }
    ++count_;
  }

  std::size_t count() const { return count_; }
  std::optional<std::size_t> first_null() const { return first_null_; }

 private:
  std::span<double> out_;
  std::size_t count_ = 0;
  std::optional<std::size_t> first_null_;
};

std::string draws_text(std::size_t n) {
  return n == 1 ? std::string("1 draw") : std::to_string(n) + " draws";
}

}  // namespace

std::string read_sample_answer(std::string_view line, std::int64_t id, std::span<double> out,
                               std::uint64_t answered) {
  Draws draws(out);
  const std::variant<Answer, AnswerFault> read = read_answer(line, &draws);
  if (const auto* fault = std::get_if<AnswerFault>(&read)) return not_an_answer(*fault);
  const Answer& answer = std::get<Answer>(read);
  const std::string asked = std::to_string(out.size());
  if (!same_id(nlohmann::json(id), answer.id)) {
    return "answered id " + clipped_json(answer.id, kEchoBytes) + " to a request with id " +
           std::to_string(id);
  }
  if (!answer.ok) {
    if (answered > 0) {
      return "answered with an error, after " + std::to_string(answered) +
             " sample answers it drew: " + clip(answer.error);
    }
    return "answered with an error (does it implement the sample op?): " + clip(answer.error);
  }
  if (!answer.is_array) return "answered a single value to a request for " + asked;
  if (draws.count() != out.size()) {
    return "answered " + draws_text(draws.count()) + " to a request for " + asked;
  }
  if (const auto null = draws.first_null()) {
    // A give-up here is wrong arithmetic, which `check` is for; this can
    // only say the answer is unusable.
    return "answered null (give up) at draw " + std::to_string(*null) +
           ", on a call that must be jittered";
  }
  return "";
}

}  // namespace acemq::conformance
