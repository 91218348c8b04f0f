// Java's common sources, drawn for sample_adapter.py.
//
//   java -cp DIR Sources SOURCE    reads "T N" lines, answers N draws, one a line
//
// SOURCE is one of:
//   math-random    Math.random()
//   new-random     new java.util.Random() once at start, nextDouble()
//   random-millis  new java.util.Random(System.currentTimeMillis()) once at start
//   random-pid     new java.util.Random(the process id) once at start
//   thread-local   ThreadLocalRandom.current().nextDouble()
//   next-float     new java.util.Random() once at start, nextFloat() as a double
//
// A draw is written as "x" and its 64 bits in hex (Double.doubleToRawLongBits):
// Double.toString is not always the shortest round-trip form. T > 1: T threads
// released together draw from the one source, thread i making N / T draws,
// one more if i < N % T, written thread by thread.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

public final class Sources {
  private static final Map<String, Supplier<DoubleSupplier>> SOURCES = Map.of(
      "math-random", () -> Math::random,
      "new-random", () -> new Random()::nextDouble,
      "random-millis", () -> new Random(System.currentTimeMillis())::nextDouble,
      "random-pid", () -> new Random(ProcessHandle.current().pid())::nextDouble,
      "thread-local", () -> () -> ThreadLocalRandom.current().nextDouble(),
      "next-float", () -> {
        Random random = new Random();
        return () -> random.nextFloat();
      });

  private Sources() {}

  static double[] drawnByThreads(DoubleSupplier draw, int count, int threads)
      throws InterruptedException {
    double[][] shares = new double[threads][];
    // A spinning start, so that every thread is running when the draws begin.
    AtomicInteger ready = new AtomicInteger();
    Thread[] pool = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      int index = i;
      shares[i] = new double[count / threads + (i < count % threads ? 1 : 0)];
      pool[i] = new Thread(() -> {
        ready.incrementAndGet();
        while (ready.get() < threads) {
          Thread.onSpinWait();
        }
        for (int k = 0; k < shares[index].length; k++) {
          shares[index][k] = draw.getAsDouble();
        }
      });
      pool[i].start();
    }
    for (Thread thread : pool) {
      thread.join();
    }
    double[] drawn = new double[count];
    int at = 0;
    for (double[] share : shares) {
      System.arraycopy(share, 0, drawn, at, share.length);
      at += share.length;
    }
    return drawn;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 1 || !SOURCES.containsKey(args[0])) {
      System.err.println("usage: Sources {" + String.join("|", SOURCES.keySet()) + "}");
      System.exit(2);
    }
    DoubleSupplier draw = SOURCES.get(args[0]).get();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    BufferedWriter out = new BufferedWriter(
        new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 20);
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] fields = line.trim().split("\\s+");
      int threads = Integer.parseInt(fields[0]);
      int count = Integer.parseInt(fields[1]);
      double[] drawn;
      if (threads == 1) {
        drawn = new double[count];
        for (int k = 0; k < count; k++) {
          drawn[k] = draw.getAsDouble();
        }
      } else {
        drawn = drawnByThreads(draw, count, threads);
      }
      for (double x : drawn) {
        out.write('x');
        out.write(Long.toHexString(Double.doubleToRawLongBits(x)));
        out.write('\n');
      }
      out.flush();
    }
  }
}
