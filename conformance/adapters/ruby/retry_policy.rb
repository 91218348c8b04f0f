# frozen_string_literal: true

# AceMQ::AMQP::RetryPolicy, the reference, transcribed verbatim from its doc
# page (lib/acemq/amqp/retry_policy.rb as documented; Ruby 3.1).
#
# Two private methods are not shown on the page and are written here:
# - backoff(attempt): the schedule's entry for the attempt, capped, computed
#   by the same loop as #schedule (no early exit, as the simplest reading).
# - copy(**changes): a new policy with the same parameters but those changed.
#
# Do not "fix" anything here: this file is what other ports are measured
# against, through adapter.rb and `retry-policy check --reference-profile`.

module AceMQ
  module AMQP
    # When to try again, and when to stop.
    class RetryPolicy
      attr_reader :max_attempts, :initial_delay, :multiplier, :max_delay,
                  :jitter_factor, :max_message_age

      def initialize(max_attempts: 1, initial_delay: 0.0, multiplier: 2.0,
                     max_delay: 0.0, jitter_factor: 0.0, max_message_age: 0.0)
        @max_attempts = max_attempts
        @initial_delay = initial_delay.to_f
        @multiplier = multiplier.to_f
        @max_delay = max_delay.to_f
        @jitter_factor = jitter_factor.to_f
        @max_message_age = max_message_age.to_f
        freeze
      end

      def self.none
        new(max_attempts: 1)
      end

      def self.exponential(max_attempts, initial_delay, max_delay = 0.0)
        new(max_attempts: max_attempts, initial_delay: initial_delay,
            multiplier: 2.0, max_delay: max_delay, jitter_factor: 0.2)
      end

      def self.fixed(max_attempts, delay)
        new(max_attempts: max_attempts, initial_delay: delay, multiplier: 1.0)
      end

      def give_up_after(age)
        copy(max_message_age: age)
      end

      def with_jitter(factor)
        copy(jitter_factor: factor)
      end

      def next_delay(attempt, message_age = 0.0, jitter: true)
        return nil if attempt >= max_attempts
        return nil if max_message_age.positive? && message_age >= max_message_age

        delay = backoff(attempt)
        [jitter ? jittered(delay) : delay, 0.0].max
      end

      def schedule
        delays = []
        delay = initial_delay
        (1...max_attempts).each do
          capped = max_delay.positive? && delay > max_delay ? max_delay : delay
          delays << capped
          delay *= multiplier
        end
        delays
      end

      def jittered(delay)
        return delay unless jitter_factor.positive? && delay.positive?

        delay * (1 + (((Kernel.rand * 2) - 1) * jitter_factor))
      end

      private

      # Not on the doc page: the schedule's entry for `attempt`, capped.
      def backoff(attempt)
        delay = initial_delay
        (1...attempt).each { delay *= multiplier }
        max_delay.positive? && delay > max_delay ? max_delay : delay
      end

      # Not on the doc page: the same parameters, some of them changed.
      def copy(**changes)
        self.class.new(max_attempts: max_attempts, initial_delay: initial_delay,
                       multiplier: multiplier, max_delay: max_delay,
                       jitter_factor: jitter_factor,
                       max_message_age: max_message_age, **changes)
      end
    end
  end
end
