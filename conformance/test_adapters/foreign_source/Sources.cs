// .NET's common sources (run on Mono), drawn for sample_adapter.py.
//
//   mono Sources.exe SOURCE    reads "T N" lines, answers N draws, one a line
//
// SOURCE is one of:
//   new-random    new System.Random() once at start, NextDouble()
//   seed-42       new System.Random(42) once at start: a constant seed
//
// A draw is written as "x" and its 64 bits in hex (BitConverter): Mono's "R"
// is not always round-trip. T > 1: T threads released together draw from the
// one System.Random, thread i making N / T draws, one more if i < N % T,
// written thread by thread.

using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;

public static class Sources
{
    static readonly Dictionary<string, Func<Func<double>>> Known =
        new Dictionary<string, Func<Func<double>>>
        {
            { "new-random", () => new Random().NextDouble },
            { "seed-42", () => new Random(42).NextDouble },
        };

    static double[] DrawnByThreads(Func<double> draw, int count, int threads)
    {
        var shares = new double[threads][];
        // A spinning start, so that every thread is running when the draws begin.
        int ready = 0;
        var pool = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            int index = i;
            shares[i] = new double[count / threads + (i < count % threads ? 1 : 0)];
            pool[i] = new Thread(() =>
            {
                Interlocked.Increment(ref ready);
                while (Volatile.Read(ref ready) < threads) Thread.SpinWait(20);
                for (int k = 0; k < shares[index].Length; k++) shares[index][k] = draw();
            });
            pool[i].Start();
        }
        foreach (var thread in pool) thread.Join();
        var drawn = new double[count];
        int at = 0;
        foreach (var share in shares)
        {
            Array.Copy(share, 0, drawn, at, share.Length);
            at += share.Length;
        }
        return drawn;
    }

    public static int Main(string[] args)
    {
        if (args.Length != 1 || !Known.ContainsKey(args[0]))
        {
            Console.Error.WriteLine("usage: Sources.exe {" + string.Join("|", Known.Keys) + "}");
            return 2;
        }
        var draw = Known[args[0]]();
        // Console.In's ReadLine also ends a line at CR; our requests end in LF only.
        var input = new StreamReader(Console.OpenStandardInput(), Encoding.ASCII);
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 20);
        output.NewLine = "\n";
        for (string line = input.ReadLine(); line != null; line = input.ReadLine())
        {
            var fields = line.Trim().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
            int threads = int.Parse(fields[0]);
            int count = int.Parse(fields[1]);
            double[] drawn;
            if (threads == 1)
            {
                drawn = new double[count];
                for (int k = 0; k < count; k++) drawn[k] = draw();
            }
            else
            {
                drawn = DrawnByThreads(draw, count, threads);
            }
            foreach (var x in drawn)
            {
                output.Write('x');
                output.Write(BitConverter.DoubleToInt64Bits(x).ToString("x"));
                output.Write('\n');
            }
            output.Flush();
        }
        return 0;
    }
}
