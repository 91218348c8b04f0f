#include "conformance/process/adapter_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace acemq::conformance {

std::unique_ptr<AdapterProcess> AdapterProcess::start(const std::string& command,
                                                      std::string& error) {
  // A dead adapter must surface as EPIPE on write, not kill the checker.
  ::signal(SIGPIPE, SIG_IGN);
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  if (::pipe2(out, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    ::close(in[0]);
    ::close(in[1]);
    return nullptr;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group, so a timeout can kill the shell and the
  // interpreter it started together, and nothing else.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);

  std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::string body = command;
  char* argv[] = {shell.data(), dash_c.data(), body.data(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  if (spawned != 0) {
    error = std::string("posix_spawn /bin/sh: ") + std::strerror(spawned);
    ::close(in[1]);
    ::close(out[0]);
    return nullptr;
  }
  // Non-blocking writes, so a request larger than the pipe cannot block
  // forever on an adapter that has stopped reading.
  ::fcntl(in[1], F_SETFL, ::fcntl(in[1], F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<AdapterProcess>(new AdapterProcess(pid, in[1], out[0]));
}

AdapterProcess::AdapterProcess(pid_t pid, int to_child, int from_child)
    : pid_(pid),
      to_child_(to_child),
      from_child_(from_child),
      reader_(from_child, kMaxAnswerBytes) {}

AdapterProcess::~AdapterProcess() {
  if (!reaped_) {
    kill_group();
    reap(std::chrono::milliseconds(2000));
  }
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
}

bool AdapterProcess::write_all(std::string_view bytes,
                               std::chrono::steady_clock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(to_child_, bytes.data(), bytes.size());
    if (wrote > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(wrote));
      continue;
    }
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && errno != EAGAIN) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd watch{.fd = to_child_, .events = POLLOUT, .revents = 0};
    ::poll(&watch, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
  }
  return true;
}

AdapterProcess::Outcome AdapterProcess::ask(std::string_view request, std::string& answer,
                                            std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const Outcome sent = send(request, timeout);
  if (sent != Outcome::answered) return sent;
  const auto left =
      std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 deadline - std::chrono::steady_clock::now()));
  return receive(answer, left);
}

AdapterProcess::Outcome AdapterProcess::send(std::string_view request,
                                             std::chrono::milliseconds timeout) {
  std::string line(request);
  line.push_back('\n');
  return write(line, timeout);
}

AdapterProcess::Outcome AdapterProcess::write(std::string_view bytes,
                                              std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (to_child_ < 0 || !write_all(bytes, deadline)) {
    return std::chrono::steady_clock::now() >= deadline ? Outcome::timed_out
                                                        : Outcome::write_failed;
  }
  return Outcome::answered;
}

AdapterProcess::Outcome AdapterProcess::read_by_adapter(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int unread = 0;
    // FIONREAD on a pipe's write end counts the bytes its reader has not
    // taken; where it cannot tell, the next write just goes on.
    if (to_child_ < 0 || ::ioctl(to_child_, FIONREAD, &unread) != 0 || unread == 0) {
      return Outcome::answered;
    }
    if (std::chrono::steady_clock::now() >= deadline) return Outcome::timed_out;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void AdapterProcess::close_input() {
  if (to_child_ >= 0) {
    ::close(to_child_);
    to_child_ = -1;
  }
}

AdapterProcess::Outcome AdapterProcess::receive(std::string& answer,
                                                std::chrono::milliseconds timeout) {
  std::size_t dropped = 0;
  switch (reader_.next(answer, dropped, timeout)) {
    case LineReader::Status::line: return Outcome::answered;
    case LineReader::Status::too_long: return Outcome::answer_too_long;
    case LineReader::Status::timeout: return Outcome::timed_out;
    case LineReader::Status::end:
    case LineReader::Status::error: return Outcome::died;
  }
  return Outcome::died;
}

void AdapterProcess::kill_group() {
  // Only our own child's group: the adapter and whatever it started.
  ::kill(-pid_, SIGKILL);
}

ProcessEnding AdapterProcess::reap(std::chrono::milliseconds grace) {
  if (reaped_) return ending_;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  bool killed = false;
  for (;;) {
    // Look without reaping: while the exited shell is a zombie its pid, and
    // so its process group id, cannot be reused, so killing the group below
    // reaches only what it started.
    siginfo_t info{};
    const int seen = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
    if (seen < 0 && errno == EINTR) continue;
    if (seen < 0) {
      ending_ = ProcessEnding{.how = ProcessEnding::How::lost};
      reaped_ = true;
      return ending_;
    }
    if (info.si_pid == pid_) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill_group();
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill_group();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed) {
    ending_ = ProcessEnding{.how = ProcessEnding::How::killed_at_grace, .grace = grace};
  } else if (WIFSIGNALED(status)) {
    ending_ = ProcessEnding{.how = ProcessEnding::How::signalled, .code = WTERMSIG(status)};
  } else {
    ending_ = ProcessEnding{.how = ProcessEnding::How::exited, .code = WEXITSTATUS(status)};
  }
  reaped_ = true;
  return ending_;
}

ProcessEnding AdapterProcess::finish(std::chrono::milliseconds grace) {
  if (to_child_ >= 0) {
    ::close(to_child_);
    to_child_ = -1;
  }
  std::string extra;
  std::size_t dropped = 0;
  switch (reader_.next(extra, dropped, grace)) {
    case LineReader::Status::line:
    case LineReader::Status::too_long: {
      ProcessEnding ending = reap(grace);
      ending.bytes_after_last_answer = extra.size() + dropped;
      return ending;
    }
    case LineReader::Status::timeout:
    case LineReader::Status::end:
    case LineReader::Status::error: break;
  }
  return reap(grace);
}

ProcessEnding AdapterProcess::fate() {
  if (to_child_ >= 0) {
    ::close(to_child_);
    to_child_ = -1;
  }
  // A dead adapter has already exited: give it a moment to be reaped with
  // its real status before the group is killed.
  return reap(std::chrono::milliseconds(500));
}

std::string AdapterProcess::failure(Outcome outcome, std::chrono::milliseconds timeout) {
  switch (outcome) {
    case Outcome::answered: return "answered";
    case Outcome::died: return "closed its output (died?): " + fate().text();
    case Outcome::timed_out:
      return "gave no answer within " + std::to_string(timeout.count()) +
             " ms (hung?): " + fate().text();
    case Outcome::answer_too_long:
      return "wrote an answer line longer than " + std::to_string(kMaxAnswerBytes) + " bytes";
    case Outcome::write_failed: return "stopped reading its input (died?): " + fate().text();
  }
  return "failed";
}

}  // namespace acemq::conformance
