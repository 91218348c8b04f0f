#include "stats/nightly/state_file.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>
#include <utility>

namespace acemq::stats {
namespace {

constexpr char kMagic[] = "acemq-retry stats state v2\n";
constexpr std::uint64_t kRecordTag = 1;
constexpr std::uint64_t kFooterTag = 0;

// FNV-1a, 64 bits: enough to tell a cut or altered file from a whole one.
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;
std::uint64_t fnv(std::uint64_t hash, const unsigned char* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * kFnvPrime;
  return hash;
}

void store_u64(unsigned char* out, std::uint64_t x) {
  for (unsigned i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(x >> (8U * i));
}
std::uint64_t load_u64(const unsigned char* in) {
  std::uint64_t x = 0;
  for (unsigned i = 0; i < 8; ++i) x |= static_cast<std::uint64_t>(in[i]) << (8U * i);
  return x;
}

// Encodes into a byte buffer, which the writer then puts in one piece. Its
// operator() takes each kind of field the file holds; Decoder's reads them
// back, so one list of fields (the *_fields templates below) serves both.
class Encoder {
 public:
  void operator()(std::uint64_t x) {
    unsigned char b[8];
    store_u64(b, x);
    bytes_.insert(bytes_.end(), b, b + 8);
  }
  void operator()(bool x) { (*this)(std::uint64_t{x ? 1U : 0U}); }
  void operator()(int x) { (*this)(static_cast<std::uint64_t>(x)); }
  void operator()(double x) { (*this)(std::bit_cast<std::uint64_t>(x)); }
  void operator()(Int128 x) {
    const auto bits = static_cast<UInt128>(x);
    (*this)(static_cast<std::uint64_t>(bits));
    (*this)(static_cast<std::uint64_t>(bits >> 64U));
  }
  void operator()(const std::string& s) {
    (*this)(std::uint64_t{s.size()});
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  void operator()(const std::vector<std::uint32_t>& v) {
    (*this)(std::uint64_t{v.size()});
    const std::size_t at = bytes_.size();
    bytes_.resize(at + 4 * v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (unsigned k = 0; k < 4; ++k) {
        bytes_[at + 4 * i + k] = static_cast<unsigned char>(v[i] >> (8U * k));
      }
    }
  }
  const std::vector<unsigned char>& bytes() const { return bytes_; }

 private:
  std::vector<unsigned char> bytes_;
};

class Decoder {
 public:
  explicit Decoder(std::filesystem::path path)
      : path_(std::move(path)), in_(path_, std::ios::binary) {
    if (!in_) fail("cannot open it");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path_.string() + ": " + what);
  }

  void raw(unsigned char* out, std::size_t size) {
    in_.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(size));
    if (static_cast<std::size_t>(in_.gcount()) != size) fail("cut short (no footer)");
    checksum_ = fnv(checksum_, out, size);
  }
  std::uint64_t u64() {
    unsigned char b[8];
    raw(b, 8);
    return load_u64(b);
  }
  std::size_t size(std::uint64_t limit, const char* what) {
    const std::uint64_t n = u64();
    if (n > limit) fail(std::string("implausible ") + what + " length " + std::to_string(n));
    return static_cast<std::size_t>(n);
  }

  void operator()(std::uint64_t& x) { x = u64(); }
  void operator()(bool& x) { x = u64() != 0; }
  void operator()(int& x) {
    const std::uint64_t v = u64();
    if (v > 64) fail("implausible histogram resolution " + std::to_string(v));
    x = static_cast<int>(v);
  }
  void operator()(double& x) { x = std::bit_cast<double>(u64()); }
  void operator()(Int128& x) {
    const std::uint64_t low = u64();
    const std::uint64_t high = u64();
    x = static_cast<Int128>((static_cast<UInt128>(high) << 64U) | low);
  }
  void operator()(std::string& s) {
    s.assign(size(std::uint64_t{1} << 20U, "text"), '\0');
    raw(reinterpret_cast<unsigned char*>(s.data()), s.size());
  }
  void operator()(std::vector<std::uint32_t>& v) {
    const std::size_t n = size(std::uint64_t{1} << 26U, "histogram");
    std::vector<unsigned char> b(4 * n);
    raw(b.data(), b.size());
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = static_cast<std::uint32_t>(b[4 * i]) | static_cast<std::uint32_t>(b[4 * i + 1]) << 8U |
             static_cast<std::uint32_t>(b[4 * i + 2]) << 16U |
             static_cast<std::uint32_t>(b[4 * i + 3]) << 24U;
    }
  }

  std::uint64_t checksum() const { return checksum_; }

 private:
  std::filesystem::path path_;
  std::ifstream in_;
  std::uint64_t checksum_ = kFnvOffset;
};

// The fields of each part of the file, in file order, for an Encoder (which
// reads them) or a Decoder (which fills them). JobInfo, BatteryConfig and the
// parts of a state are taken const by the Encoder's instantiation and
// mutable by the Decoder's.
template <class Io, class Job>
void job_fields(Io& io, Job& j) {
  io(j.name);
  io(j.description);
  io(j.delay);
  io(j.factor);
  io(j.seed);
  io(j.n);
  io(j.in_family);
}

template <class Io, class Header>
void header_fields(Io& io, Header& h) {
  io(h.night_seed);
  io(h.plan);
  io(h.replay);
  io(h.family_size);
  io(h.shard);
  io(h.shards);
}

template <class Io, class Config>
void config_fields(Io& io, Config& c) {
  io(c.delay);
  io(c.factor);
  io(c.histogram_bits);
  io(c.min_bits);
}

template <class Io, class Range, class Counts, class Sums, class Runs, class Repeats>
void state_fields(Io& io, Range& r, Counts& counts, Sums& m, Runs& runs, Repeats& repeats) {
  io(r.lo);
  io(r.hi);
  io(r.outside);
  io(r.min);
  io(r.max);
  for (auto& shown : r.shown) {
    io(shown.draw);
    io(shown.value);
  }
  io(counts);
  io(m.n);
  io(m.segments);
  io(m.sum);
  io(m.squares);
  io(m.lag);
  io(m.ends);
  io(m.min);
  io(m.max);
  io(runs.pairs);
  io(runs.changes);
  io(repeats.count);
  io(repeats.pairs);
  io(repeats.windows);
}

void encode(Encoder& e, const StateFileHeader& h) {
  e(std::string(kMagic));
  header_fields(e, h);
  e(std::uint64_t{h.jobs.size()});
  for (const JobInfo& j : h.jobs) job_fields(e, j);
}

StateFileHeader decode_header(Decoder& d) {
  const std::string magic = kMagic;
  if (d.u64() != magic.size()) d.fail("not a stats state file");
  std::string found(magic.size(), '\0');
  d.raw(reinterpret_cast<unsigned char*>(found.data()), found.size());
  if (found != magic) {
    d.fail("not a stats state file of this version (" + magic.substr(0, magic.size() - 1) + ")");
  }
  StateFileHeader h;
  header_fields(d, h);
  h.jobs.resize(d.size(std::uint64_t{1} << 16U, "job list"));
  for (JobInfo& j : h.jobs) job_fields(d, j);
  if (h.shard < 1 || h.shard > h.shards) {
    d.fail("shard " + std::to_string(h.shard) + " of " + std::to_string(h.shards));
  }
  return h;
}

void encode(Encoder& e, const BatteryState& s) {
  config_fields(e, s.config);
  state_fields(e, s.range, s.histogram.counts(), s.moments.sums(), s.runs, s.repeats);
}

BatteryState decode_state(Decoder& d) {
  BatteryConfig config;
  config_fields(d, config);
  if (config.histogram_bits < kMinHistogramBits || config.histogram_bits > kCellBits) {
    d.fail("bad histogram resolution " + std::to_string(config.histogram_bits));
  }
  BatteryState s(config);
  const std::size_t bins = s.histogram.counts().size();
  Moments::Sums sums;
  state_fields(d, s.range, s.histogram.counts(), sums, s.runs, s.repeats);
  if (s.histogram.counts().size() != bins) d.fail("histogram of the wrong size");
  s.moments = Moments(sums);
  if (s.histogram.total() != s.n()) d.fail("histogram and moments disagree on n");
  return s;
}

// A job's slices as they arrive: the merged state so far and the segment
// ranges it covers.
struct Pending {
  std::optional<BatteryState> state;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> covered;
  std::uint64_t segments_covered = 0;
  double seconds = 0.0;
  bool complete = false;
};

}  // namespace

bool StateFileHeader::same_night(const StateFileHeader& other) const {
  return night_seed == other.night_seed && plan == other.plan && replay == other.replay &&
         family_size == other.family_size && jobs == other.jobs && shards == other.shards;
}

StateFileWriter::StateFileWriter(std::filesystem::path path, const StateFileHeader& header)
    : path_(std::move(path)), partial_(path_.string() + ".partial"), checksum_(kFnvOffset) {
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
  out_.open(partial_, std::ios::binary | std::ios::trunc);
  if (!out_) throw std::runtime_error("cannot write " + partial_.string());
  Encoder e;
  encode(e, header);
  put(e.bytes().data(), e.bytes().size());
}

void StateFileWriter::put(const void* data, std::size_t size) {
  checksum_ = fnv(checksum_, static_cast<const unsigned char*>(data), size);
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out_) throw std::runtime_error("cannot write " + partial_.string());
}

void StateFileWriter::write(const SliceResult& result) {
  Encoder e;
  e(kRecordTag);
  e(std::uint64_t{result.slice.job});
  e(result.slice.begin);
  e(result.slice.end);
  e(result.seconds);
  encode(e, result.state);
  put(e.bytes().data(), e.bytes().size());
  ++records_;
}

void StateFileWriter::finish() {
  Encoder e;
  e(kFooterTag);
  e(records_);
  put(e.bytes().data(), e.bytes().size());
  unsigned char sum[8];
  store_u64(sum, checksum_);
  out_.write(reinterpret_cast<const char*>(sum), 8);
  out_.close();
  if (!out_) throw std::runtime_error("cannot write " + partial_.string());
  std::filesystem::rename(partial_, path_);
}

std::vector<std::filesystem::path> state_files(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> files;
  for (const std::filesystem::path& p : paths) {
    if (!std::filesystem::is_directory(p)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::filesystem::path> inside;
    for (const auto& entry : std::filesystem::directory_iterator(p)) {
      if (entry.is_regular_file() && entry.path().extension() == ".state") {
        inside.push_back(entry.path());
      }
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

StateFileHeader merge_shards(
    const std::vector<std::filesystem::path>& files,
    const std::function<void(std::size_t job, const JobInfo& info, BatteryState&& state,
                             double seconds)>& done) {
  if (files.empty()) throw std::runtime_error("merge: no state files given");
  // The headers first: all one night, each K once.
  std::vector<std::pair<StateFileHeader, std::filesystem::path>> headers;
  for (const std::filesystem::path& f : files) {
    Decoder d(f);
    headers.emplace_back(decode_header(d), f);
  }
  std::sort(headers.begin(), headers.end(),
            [](const auto& a, const auto& b) { return a.first.shard < b.first.shard; });
  const StateFileHeader& night = headers.front().first;
  for (const auto& [h, path] : headers) {
    if (!h.same_night(night)) {
      throw std::runtime_error(
          path.string() + ": belongs to another night or plan than " +
          headers.front().second.string() + " (seed " + std::to_string(h.night_seed) + " against " +
          std::to_string(night.night_seed) + ", " + h.plan + " against " + night.plan + ")");
    }
  }
  bool each_once = headers.size() == night.shards;
  std::string found;
  for (std::size_t k = 0; k < headers.size(); ++k) {
    each_once = each_once && headers[k].first.shard == k + 1;
    found += (k == 0 ? "" : ", ") + std::to_string(headers[k].first.shard);
  }
  if (!each_once) {
    throw std::runtime_error("merge: the files hold shards " + found + " of " +
                             std::to_string(night.shards) + "; each of 1.." +
                             std::to_string(night.shards) + " must be there once");
  }

  std::vector<Pending> pending(night.jobs.size());
  for (const auto& [expected, path] : headers) {
    Decoder d(path);
    decode_header(d);
    std::uint64_t records = 0;
    while (true) {
      const std::uint64_t tag = d.u64();
      if (tag == kFooterTag) break;
      if (tag != kRecordTag) d.fail("corrupt record");
      ++records;
      const std::uint64_t job = d.u64();
      const std::uint64_t begin = d.u64();
      const std::uint64_t end = d.u64();
      double seconds = 0.0;
      d(seconds);
      if (job >= night.jobs.size()) d.fail("a record of job " + std::to_string(job));
      const JobInfo& info = night.jobs[job];
      if (!(begin < end && end <= info.segments())) {
        d.fail(info.name + ": segments " + std::to_string(begin) + ".." + std::to_string(end) +
               " of " + std::to_string(info.segments()));
      }
      BatteryState state = decode_state(d);
      if (!(state.config == info.config())) d.fail(info.name + ": a state of another cell");
      Pending& p = pending[job];
      for (const auto& [b, e] : p.covered) {
        if (begin < e && b < end) {
          d.fail(info.name + ": segments " + std::to_string(begin) + ".." + std::to_string(end) +
                 " were drawn twice");
        }
      }
      if (p.complete) d.fail(info.name + ": more segments than the job has");
      p.covered.emplace_back(begin, end);
      p.segments_covered += end - begin;
      p.seconds += seconds;
      if (p.state) {
        p.state->merge(state);
      } else {
        p.state = std::move(state);
      }
      if (p.segments_covered == info.segments()) {
        p.complete = true;
        done(job, info, std::move(*p.state), p.seconds);
        p.state.reset();
      }
    }
    const std::uint64_t count = d.u64();
    const std::uint64_t computed = d.checksum();
    unsigned char sum[8];
    d.raw(sum, 8);
    if (count != records)
      d.fail("footer counts " + std::to_string(count) + " records, not " + std::to_string(records));
    if (load_u64(sum) != computed) d.fail("checksum mismatch: the file was changed or damaged");
  }
  for (std::size_t j = 0; j < pending.size(); ++j) {
    if (!pending[j].complete) {
      throw std::runtime_error(
          "merge: " + night.jobs[j].name + " has " + std::to_string(pending[j].segments_covered) +
          " of its " + std::to_string(night.jobs[j].segments()) + " segments in these shards");
    }
  }
  return night;
}

}  // namespace acemq::stats
