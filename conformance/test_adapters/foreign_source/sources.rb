# Ruby's common sources, drawn for sample_adapter.py.
#
#   ruby sources.rb SOURCE    reads "T N" lines, answers N draws, one a line
#
# SOURCE is one of:
#   kernel-rand   Kernel#rand, seeded by Ruby from the system's entropy
#   time-seconds  Random.new(Time.now.to_i) once at start, #rand
#
# Draws are written by Float#to_s, the shortest round-trip form. T > 1: T
# threads released together draw from the one source, thread i making N / T
# draws, one more if i < N % T, written thread by thread.

SOURCES = {
  'kernel-rand' => -> { -> { rand } },
  'time-seconds' => lambda {
    random = Random.new(Time.now.to_i)
    -> { random.rand }
  }
}.freeze

def drawn_by_threads(draw, count, threads)
  start = Queue.new
  pool = Array.new(threads) do |i|
    calls = count / threads + (i < count % threads ? 1 : 0)
    Thread.new do
      start.pop
      Array.new(calls) { draw.call }
    end
  end
  threads.times { start.push(true) }
  pool.flat_map(&:value)
end

unless ARGV.length == 1 && SOURCES.key?(ARGV[0])
  warn "usage: sources.rb {#{SOURCES.keys.join('|')}}"
  exit 2
end
draw = SOURCES.fetch(ARGV[0]).call
$stdout.binmode
$stdin.each_line do |line|
  threads, count = line.split.map { |field| Integer(field) }
  drawn = threads == 1 ? Array.new(count) { draw.call } : drawn_by_threads(draw, count, threads)
  $stdout.write(drawn.map(&:to_s).join("\n"), "\n")
  $stdout.flush
end
