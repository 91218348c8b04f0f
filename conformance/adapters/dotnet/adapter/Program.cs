// RetryPolicyAdapter speaks the conformance protocol (docs/protocol.md
// in the acemq-retry repository) for the .NET port: one JSON request a line
// on stdin, one answer a line on stdout, flushed, until end of input.
//
//   retry-policy check --impl "mono RetryPolicyAdapter.exe"
//
// Written from the protocol's text, as a port's team would; each Mono / .NET
// trap it meets is commented where it is handled.

using System;
using System.IO;

namespace AceMQ.Amqp.Conformance
{
    /// <summary>
    /// Request lines as bytes up to each LF. Not StreamReader.ReadLine: it
    /// also ends a line at CR (and at CR LF), where the protocol's CR is JSON
    /// whitespace, so one request would be answered twice and the
    /// conversation would break; and it would store a line of any length.
    /// </summary>
    public sealed class LineReader
    {
        private readonly Stream input;
        private readonly int maxLineBytes;
        private readonly byte[] chunk = new byte[1 << 16];
        private int chunkStart;
        private int chunkEnd;
        private bool endOfInput;
        private byte[] line = new byte[1 << 12];

        public LineReader(Stream input, int maxLineBytes)
        {
            this.input = input;
            this.maxLineBytes = maxLineBytes;
        }

        /// <summary>The line's bytes, without its LF (valid up to Length).</summary>
        public byte[] Line { get { return line; } }

        public int Length { get; private set; }

        /// <summary>When the line was longer than the limit: its length, its bytes dropped; else 0.</summary>
        public long TooLong { get; private set; }

        /// <summary>
        /// Reads the next line; false at end of input. A last line without an
        /// LF is still a line.
        /// </summary>
        public bool Next()
        {
            Length = 0;
            TooLong = 0;
            long count = 0;
            bool any = false;
            for (;;)
            {
                if (chunkStart == chunkEnd)
                {
                    if (endOfInput) break;
                    chunkStart = 0;
                    chunkEnd = input.Read(chunk, 0, chunk.Length);
                    if (chunkEnd <= 0)
                    {
                        chunkEnd = 0;
                        endOfInput = true;
                        break;
                    }
                }
                any = true;
                int lf = Array.IndexOf(chunk, (byte)'\n', chunkStart, chunkEnd - chunkStart);
                int end = lf < 0 ? chunkEnd : lf;
                count += end - chunkStart;
                if (count <= maxLineBytes)
                {
                    if (Length + (end - chunkStart) > line.Length)
                    {
                        Array.Resize(ref line, Math.Max(line.Length * 2, Length + (end - chunkStart)));
                    }
                    Buffer.BlockCopy(chunk, chunkStart, line, Length, end - chunkStart);
                    Length += end - chunkStart;
                }
                // Past the limit the bytes are counted, not kept.
                chunkStart = end;
                if (lf >= 0)
                {
                    chunkStart = lf + 1;
                    break;
                }
            }
            if (count > maxLineBytes)
            {
                TooLong = count;
                Length = 0;
            }
            return any;
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            // A measuring hook, off unless asked for: ACEMQ_DOTNET_SOURCE=system-random
            // makes `sample` draw from System.Random.NextDouble() (31 bits on Mono
            // and .NET Framework), so `retry-policy stats` can be pointed at the
            // source the contract's 53-bit rule refuses; with `threads`, its one
            // instance is also drawn from unlocked by many threads, the trap
            // DefaultSource avoids. Any other value is refused rather than ignored.
            string sourceName = Environment.GetEnvironmentVariable("ACEMQ_DOTNET_SOURCE");
            if (!string.IsNullOrEmpty(sourceName))
            {
                if (sourceName != "system-random")
                {
                    Console.Error.WriteLine("RetryPolicyAdapter: ACEMQ_DOTNET_SOURCE must be unset or \"system-random\", got \"" +
                                            sourceName + "\"");
                    return 2;
                }
                var systemRandom = new Random();
                Protocol.SampleSource = systemRandom.NextDouble;
                Console.Error.WriteLine("RetryPolicyAdapter: sample draws from System.Random.NextDouble(), not the port's DefaultSource");
            }

            Stream input = Console.OpenStandardInput();
            Stream output = Console.OpenStandardOutput();
            var reader = new LineReader(input, Protocol.MaxLineBytes);
            var answer = new Answer();
            while (reader.Next())
            {
                if (reader.TooLong > 0)
                {
                    Protocol.AnswerTooLong(reader.TooLong, answer);
                }
                else
                {
                    Protocol.AnswerLine(reader.Line, reader.Length, answer);
                }
                try
                {
                    // One write and a flush an answer, before reading on.
                    answer.WriteLineTo(output);
                }
                catch (IOException)
                {
                    return 1;  // the checker went away
                }
            }
            return 0;
        }
    }
}
