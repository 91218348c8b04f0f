# frozen_string_literal: true

# The Ruby reference's adapter: speaks the conformance protocol on
# stdin/stdout, one JSON request a line in, one answer a line out.
#
#   retry-policy check --reference-profile --impl "ruby conformance/adapters/ruby/adapter.rb"
#
# The reference does not validate, so on invalid input it answers what Ruby
# computes, not the contract's error: check it with --reference-profile, which
# sends only requests on which the two agree. The injected draw `r` stands in
# for Kernel.rand; a replay calls srand(seed) and lets the real Kernel.rand run;
# `sample` draws from Kernel.rand itself, the reference's default source, so
# `retry-policy stats` tests the randomness the reference's users get.

require 'json'
require_relative 'retry_policy'

# Kernel.rand, with a draw the request may inject.
module Kernel
  class << self
    alias_method :reference_rand, :rand

    def rand(*args)
      injected = Thread.current[:acemq_draw]
      injected.nil? ? reference_rand(*args) : injected
    end
  end
end

module ConformanceAdapter
  module_function

  NON_FINITE = { 'Infinity' => Float::INFINITY, '-Infinity' => -Float::INFINITY,
                 'NaN' => Float::NAN }.freeze

  # The protocol's limits this adapter applies, by the table's names.
  LIMITS = { 'max_sample_threads' => 64 }.freeze
  # The rest: the reference validates nothing, and neither check's reference
  # profile nor stats sends a request past one of these.
  LIMITS_NOT_APPLIED = %w[max_line_bytes max_depth max_schedule_entries max_replay_calls
                          max_replay_skip max_sample_count max_steps max_seed].freeze

  def number(value, path)
    return value.to_f if value.is_a?(Numeric)
    return NON_FINITE[value] if NON_FINITE.key?(value)

    raise ArgumentError, "#{path}: must be a number or a non-finite string"
  end

  def integer(value, path)
    return value if value.is_a?(Integer)

    raise ArgumentError, "#{path}: must be an integer"
  end

  def wire(value)
    return 'null' if value.nil?
    return "[#{value.map { |v| wire(v) }.join(',')}]" if value.is_a?(Array)
    return '"NaN"' if value.nan?
    return(value.positive? ? '"Infinity"' : '"-Infinity"') if value.infinite?

    value.to_s # Float#to_s is the shortest round-trip form: 1.0, 1.0e-09
  end

  def policy(spec)
    raise ArgumentError, 'policy: must be an object' unless spec.is_a?(Hash)

    policy =
      case spec['factory']
      when nil
        fields = {}
        if spec.key?('max_attempts')
          fields[:max_attempts] = integer(spec['max_attempts'], 'policy.max_attempts')
        end
        %w[initial_delay multiplier max_delay jitter_factor max_message_age].each do |name|
          fields[name.to_sym] = number(spec[name], "policy.#{name}") if spec.key?(name)
        end
        AceMQ::AMQP::RetryPolicy.new(**fields)
      when 'none' then AceMQ::AMQP::RetryPolicy.none
      when 'fixed'
        AceMQ::AMQP::RetryPolicy.fixed(integer(spec['max_attempts'], 'policy.max_attempts'),
                                       number(spec['delay'], 'policy.delay'))
      when 'exponential'
        args = [integer(spec['max_attempts'], 'policy.max_attempts'),
                number(spec['initial_delay'], 'policy.initial_delay')]
        args << number(spec['max_delay'], 'policy.max_delay') if spec.key?('max_delay')
        AceMQ::AMQP::RetryPolicy.exponential(*args)
      else raise ArgumentError, 'policy.factory: unknown'
      end
    policy = policy.give_up_after(number(spec['give_up_after'], 'policy.give_up_after')) if spec.key?('give_up_after')
    policy = policy.with_jitter(number(spec['with_jitter'], 'policy.with_jitter')) if spec.key?('with_jitter')
    policy
  end

  def with_draw(r)
    Thread.current[:acemq_draw] = r
    yield
  ensure
    Thread.current[:acemq_draw] = nil
  end

  def schedule(policy, _request)
    policy.schedule
  end

  def next_delay(policy, request)
    attempt = integer(request['attempt'], 'attempt')
    age = request.key?('message_age') ? number(request['message_age'], 'message_age') : 0.0
    if request.fetch('jitter', true)
      with_draw(number(request['r'], 'r')) { policy.next_delay(attempt, age) }
    else
      policy.next_delay(attempt, age, jitter: false)
    end
  end

  def jittered(policy, request)
    with_draw(number(request['r'], 'r')) { policy.jittered(number(request['delay'], 'delay')) }
  end

  def replay(policy, request)
    srand(integer(request['seed'], 'seed'))
    integer(request.fetch('skip', 0), 'skip').times { rand }
    request['calls'].map do |attempt, age|
      policy.next_delay(integer(attempt, 'attempt'), number(age, 'message_age'))
    end
  end

  # The reference's own randomness, for `retry-policy stats`: count calls of
  # jittered or next_delay drawing from Kernel.rand, the reference's default
  # source (genrand_res53, 53 bits), nothing injected. Kernel.rand is one
  # global stream: a replay's srand reseeds it, so a conversation that mixes
  # replay and sample does not see one unbroken stream (stats sends only
  # sample). With threads above 1, that many Ruby threads make the calls at
  # once (drawn_at_once).
  def sample(policy, request)
    count = integer(request['count'], 'count')
    draw =
      if request.key?('delay')
        delay = number(request['delay'], 'delay')
        -> { policy.jittered(delay) }
      else
        attempt = integer(request['attempt'], 'attempt')
        -> { policy.next_delay(attempt) }
      end
    threads = integer(request.fetch('threads', 1), 'threads')
    # The one bound the adapter adds to the reference: a request must not
    # start a thread per draw, nor divide by zero.
    most = LIMITS.fetch('max_sample_threads')
    raise ArgumentError, "threads: must be in [1, #{most}], got #{threads}" unless (1..most).cover?(threads)
    return Array.new(count) { draw.call } if threads == 1

    drawn_at_once(count, threads, draw)
  end

  # count calls of draw, made by that many threads released together, as a
  # pool of the reference's users would make them: no lock of ours around
  # Kernel.rand, since whether it is safe to share is what `stats` asks.
  # Thread i makes count / threads calls, one more if i < count % threads;
  # the answer is thread 0's draws in order, then thread 1's, and so on.
  def drawn_at_once(count, threads, draw)
    ready = Queue.new
    start = Queue.new
    pool = []
    begin
      threads.times do |i|
        pool << Thread.new(count / threads + (i < count % threads ? 1 : 0)) do |calls|
          Thread.current.report_on_exception = false # its error is the request's, raised by #value
          ready << i
          start.pop
          Array.new(calls) { draw.call }
        end
      end
      threads.times { ready.pop } # every thread started: release them all at once
    ensure
      pool.size.times { start << true } # and if one failed to start, the others too
    end
    pool.flat_map(&:value)
  end

  # Each op: the members a request of it may have, and its answer. The
  # reference refuses no member; past id, op and policy, these are the ones
  # the answer reads.
  OPS = {
    'schedule' => [%w[id op policy].freeze, method(:schedule)],
    'next_delay' => [%w[id op policy attempt message_age jitter r].freeze, method(:next_delay)],
    'jittered' => [%w[id op policy delay r].freeze, method(:jittered)],
    'replay' => [%w[id op policy seed skip calls].freeze, method(:replay)],
    'sample' => [%w[id op policy delay attempt count threads].freeze, method(:sample)]
  }.freeze

  def result(request)
    policy = policy(request['policy'])
    _members, answer = OPS.fetch(request['op']) { raise ArgumentError, 'op: unknown' }
    answer.call(policy, request)
  end

  def answer(line)
    id = nil
    request = JSON.parse(line)
    raise ArgumentError, 'line: must be a JSON object' unless request.is_a?(Hash)

    id = request['id']
    %({"id":#{JSON.generate(id, ascii_only: true)},"ok":true,"result":#{wire(result(request))}})
  rescue StandardError => e
    # Answers are ASCII (docs/protocol.md, Answers): ascii_only escapes the rest.
    %({"id":#{JSON.generate(id, ascii_only: true)},"ok":false,) +
      %("error":#{JSON.generate("#{e.class}: #{e.message}".scrub, ascii_only: true)}})
  end
end

# Run, not required (test_adapter.rb requires it for its tables).
if $PROGRAM_NAME == __FILE__
  $stdout.sync = true
  $stdin.binmode
  $stdin.each_line("\n", chomp: true) do |line|
    $stdout.write(ConformanceAdapter.answer(line.force_encoding(Encoding::UTF_8)), "\n")
  end
end
