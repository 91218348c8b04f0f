# frozen_string_literal: true

# Times the Ruby reference doing what BM_NextDelay_Jittered and
# BM_NextDelay_Unjittered do: next_delay on exponential(10, 0.5, 30) with
# attempts cycling 1..9, so the C++ and Ruby figures in the README compare.
#
#   ruby bench/ruby_reference_bench.rb [calls]
#
# The doc page does not show the reference's private #backoff, so two
# readings are timed: the transcription's loop (conformance/adapters/ruby),
# and #schedule[attempt - 1], which is what the page's words ("the delay the
# schedule says") most literally describe. The best of 5 runs is reported, in
# process CPU time, as Google Benchmark's CPU column is, so a busy machine
# inflates neither figure.
require_relative '../conformance/adapters/ruby/retry_policy'

# The literal reading of backoff: index into the schedule.
class ScheduleIndexedPolicy < AceMQ::AMQP::RetryPolicy
  private

  def backoff(attempt)
    schedule[attempt - 1]
  end
end

def ns_per_call(policy, calls, jitter)
  best = Float::INFINITY
  5.times do
    attempt = 1
    started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    calls.times do
      policy.next_delay(attempt, 0.0, jitter: jitter)
      attempt = attempt == 9 ? 1 : attempt + 1
    end
    elapsed = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started
    best = [best, elapsed / calls * 1e9].min
  end
  best
end

calls = Integer(ARGV.fetch(0, 1_000_000))
srand(42)
puts "ruby #{RUBY_VERSION} (#{RUBY_PLATFORM}), #{calls} calls a run, best of 5"
{ 'backoff by loop (the transcription)' => AceMQ::AMQP::RetryPolicy,
  'backoff by schedule[attempt - 1]' => ScheduleIndexedPolicy }.each do |name, klass|
  policy = klass.exponential(10, 0.5, 30.0)
  printf("%-40s jittered %7.1f ns/call   unjittered %7.1f ns/call\n", name,
         ns_per_call(policy, calls, true), ns_per_call(policy, calls, false))
end
