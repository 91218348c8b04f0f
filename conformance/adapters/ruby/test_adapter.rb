# frozen_string_literal: true

# The adapter's own test (the reference itself is measured by
# `retry-policy check --reference-profile`):
#
#   ruby conformance/adapters/ruby/test_adapter.rb

require 'json'
require 'minitest/autorun'
require_relative 'adapter'

# The adapter's limits, ops and members against the protocol's table
# (conformance/protocol/protocol.json, what `retry-policy protocol` prints): a
# limit or member changed there and not here fails now, not at the border
# case a run of check or stats may or may not send.
class ProtocolTableTest < Minitest::Test
  TABLE = JSON.parse(File.read(File.expand_path('../../protocol/protocol.json', __dir__)))

  def test_every_limit_is_applied_or_said_not_to_be
    applied = ConformanceAdapter::LIMITS.keys
    not_applied = ConformanceAdapter::LIMITS_NOT_APPLIED
    assert_empty applied & not_applied, 'limits both applied and not'
    assert_equal TABLE['limits'].keys.sort, (applied + not_applied).sort,
                 "the table's limits, and the adapter's LIMITS with LIMITS_NOT_APPLIED"
  end

  def test_applied_limits_are_the_tables
    ConformanceAdapter::LIMITS.each do |name, value|
      assert_equal TABLE.dig('limits', name, 'value'), value, "limit #{name}"
    end
  end

  def test_ops_in_order_and_their_members
    assert_equal TABLE['ops'].map { |op| op['name'] }, ConformanceAdapter::OPS.keys, 'the ops'
    TABLE['ops'].each do |op|
      members, = ConformanceAdapter::OPS[op['name']]
      assert_equal op['members'].map { |m| m['name'] }, members, "op #{op['name']}'s members"
    end
  end

  # No test of vector_line_members: the reference refuses no member, so a
  # vector line's expected answer rides along unread like any other.
end

# Whole answers through the tables: an op of OPS, an op not in it, and the
# one limit of LIMITS at its border.
class AnswerTest < Minitest::Test
  def test_an_op_from_the_table
    assert_equal '{"id":1,"ok":true,"result":[0.5,1.0,2.0,3.0]}',
                 ConformanceAdapter.answer('{"id":1,"op":"schedule","policy":{"factory":"exponential",' \
                                           '"max_attempts":5,"initial_delay":0.5,"max_delay":3}}')
  end

  def test_an_op_not_in_the_table
    assert_equal '{"id":2,"ok":false,"error":"ArgumentError: op: unknown"}',
                 ConformanceAdapter.answer('{"id":2,"op":"nope","policy":{}}')
  end

  def test_threads_past_the_limit
    assert_equal '{"id":3,"ok":false,"error":"ArgumentError: threads: must be in [1, 64], got 65"}',
                 ConformanceAdapter.answer('{"id":3,"op":"sample","policy":{},"delay":1,"count":1,"threads":65}')
  end
end
