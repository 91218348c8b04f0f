// C++'s common source, drawn for sample_adapter.py.
//
//   sources SOURCE    reads "T N" lines, answers N draws, one a line
//
// SOURCE is:
//   mt19937-random-device  std::uniform_real_distribution<double>(0, 1) over one
//                          std::mt19937 seeded by one std::random_device() call
//
// Draws are written by std::to_chars, the shortest round-trip form. T > 1: T
// threads released together draw from the one engine with no lock, as a pool
// sharing it would (a data race: what the threads cell is for), thread i
// making N / T draws, one more if i < N % T, written thread by thread.

#include <atomic>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Source {
  std::mt19937 engine{std::random_device{}()};
  std::uniform_real_distribution<double> uniform{0.0, 1.0};
  double operator()() { return uniform(engine); }
};

std::vector<double> drawn_by_threads(Source& source, long count, long threads) {
  std::vector<std::vector<double>> shares(static_cast<std::size_t>(threads));
  // A spinning start, so that every thread is running when the draws begin.
  std::atomic<long> ready{0};
  std::vector<std::thread> pool;
  for (long i = 0; i < threads; ++i) {
    const long calls = count / threads + (i < count % threads ? 1 : 0);
    pool.emplace_back([&, i, calls] {
      std::vector<double>& share = shares[static_cast<std::size_t>(i)];
      share.reserve(static_cast<std::size_t>(calls));
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      for (long k = 0; k < calls; ++k) share.push_back(source());
    });
  }
  for (std::thread& thread : pool) thread.join();
  std::vector<double> drawn;
  for (const std::vector<double>& share : shares)
    drawn.insert(drawn.end(), share.begin(), share.end());
  return drawn;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) != "mt19937-random-device") {
    std::fputs("usage: sources mt19937-random-device\n", stderr);
    return 2;
  }
  Source source;
  long threads = 0;
  long count = 0;
  std::string text;
  char number[32];
  while (std::cin >> threads >> count) {
    std::vector<double> drawn;
    if (threads == 1) {
      for (long k = 0; k < count; ++k) drawn.push_back(source());
    } else {
      drawn = drawn_by_threads(source, count, threads);
    }
    text.clear();
    for (double x : drawn) {
      text.append(number, std::to_chars(number, number + sizeof number, x).ptr);
      text.push_back('\n');
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  return 0;
}
