// JavacLoop: javac kept warm for the Java port's text mutants. Each line on
// stdin is one compilation's javac arguments, separated by tabs; each answer
// on stdout is one line, the exit status, a tab, and javac's diagnostics
// with their newlines written as \n. A fresh javac spends about a second
// starting and warming its JIT for a port of a dozen files; the same
// compiler called in this one JVM compiles a mutant in a fraction of it, and
// writes the same classes, since it is the same javax.tools compiler.
//
//   java mutation/ports/JavacLoop.java     (the source launcher: no build step)
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public final class JavacLoop {
  public static void main(String[] args) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    for (String line; (line = in.readLine()) != null; ) {
      ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
      int status;
      try (PrintStream err = new PrintStream(diagnostics, true, StandardCharsets.UTF_8)) {
        status = javac.run(null, err, err, line.split("\t"));
      }
      String text = diagnostics.toString(StandardCharsets.UTF_8);
      out.println(status + "\t" + text.replace("\\", "\\\\").replace("\n", "\\n"));
    }
  }
}
