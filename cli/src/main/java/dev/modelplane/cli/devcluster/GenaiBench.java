package dev.modelplane.cli.devcluster;

import dev.modelplane.common.io.PathTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * genai-bench from PyPI, installed once into a virtual environment in the cache
 * ({@code <cache>/genai-bench-<version>/venv}, the same place and version as {@code hack/bench/genai-bench.sh}), and
 * a tokenizer that counts tokens as modelplane's simulator does, built once next to it from genai-bench's own prompt
 * text. Thread-safe; each step runs once per process.
 *
 * @param home {@code <cache>/genai-bench-<version>}
 * @param searchPath where python is looked for ({@code PATH})
 */
record GenaiBench(Path home, String searchPath) {
  /** The pinned genai-bench release. */
  static final String VERSION = "0.0.5";
  private static final Logger LOG = LoggerFactory.getLogger(GenaiBench.class);
  private static final Object LOCK = new Object();
  private static final String COMPLETE = ".complete";

  /** genai-bench under the cache of {@code env} ({@code MODELPLANE_CACHE}, else {@code XDG_CACHE_HOME}, else ~). */
  static GenaiBench inCache(Map<String, String> env, String userHome) {
    String cache = env.get("MODELPLANE_CACHE");
    Path root;
    if (cache != null && !cache.isEmpty()) {
      root = Path.of(cache);
    } else {
      String xdg = env.get("XDG_CACHE_HOME");
      root = (xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(userHome, ".cache")).resolve("modelplane");
    }
    return new GenaiBench(root.resolve("genai-bench-" + VERSION), env.getOrDefault("PATH", "/usr/bin:/bin"));
  }

  /** The virtual environment's {@code bin} directory (genai-bench and its python). */
  Path bin() {
    return home.resolve("venv").resolve("bin");
  }

  /** The simulator-counting tokenizer's directory (tokenizer.json, tokenizer_config.json). */
  Path tokenizer() {
    return home.resolve("tokenizer");
  }

  /** Whether genai-bench is installed. */
  boolean installed() {
    return Files.isExecutable(bin().resolve("genai-bench")) && Files.exists(home.resolve(COMPLETE));
  }

  /** Installs genai-bench if it is not (minutes, once); output goes to {@code <home>.install.log}. */
  void install() throws IOException, InterruptedException {
    synchronized (LOCK) {
      if (installed()) {
        return;
      }
      String python = python(searchPath);
      Path log = home.resolveSibling(home.getFileName() + ".install.log");
      LOG.atInfo().addKeyValue("event", "genai_bench_install").addKeyValue("version", VERSION)
          .addKeyValue("dir", home).addKeyValue("log", log).log("installing genai-bench from PyPI (once)");
      PathTrees.deleteRecursively(home);
      Files.createDirectories(home);
      Files.writeString(log, "");
      run(log, python, "-m", "venv", home.resolve("venv").toString());
      run(log, bin().resolve("pip").toString(), "install", "--quiet", "--disable-pip-version-check",
          "genai-bench==" + VERSION);
      run(log, bin().resolve("genai-bench").toString(), "--help");
      Files.writeString(home.resolve(COMPLETE), "");
    }
  }

  /** Builds the tokenizer if it is not there (seconds, once); needs genai-bench installed. */
  void buildTokenizer() throws IOException, InterruptedException {
    synchronized (LOCK) {
      if (Files.exists(tokenizer().resolve(COMPLETE))) {
        return;
      }
      Path script = home.resolve("tokenizer.py");
      try (InputStream in = GenaiBench.class.getResourceAsStream("tokenizer.py")) {
        if (in == null) {
          throw new IOException("tokenizer.py is missing from the distribution");
        }
        Files.write(script, in.readAllBytes());
      }
      Path log = home.resolve("tokenizer.log");
      Files.writeString(log, "");
      String py = bin().resolve("python").toString();
      Path sonnet = home.resolve("sonnet.path");
      run(log, py, "-c", "import genai_bench, os; open('" + sonnet + "', 'w').write(os.path.join("
          + "os.path.dirname(genai_bench.__file__), 'data', 'sonnet.txt'))");
      PathTrees.deleteRecursively(tokenizer());
      Files.createDirectories(tokenizer());
      run(log, py, script.toString(), tokenizer().toString(), Files.readString(sonnet, StandardCharsets.UTF_8));
      Files.writeString(tokenizer().resolve(COMPLETE), "");
    }
  }

  /** The first python on PATH that genai-bench supports (3.10 to 3.12). */
  private static String python(String path) throws IOException, InterruptedException {
    for (String name : List.of("python3.12", "python3.11", "python3.10", "python3")) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate) && new ProcessBuilder(candidate.toString(), "-c",
            "import sys; sys.exit(not ((3, 10) <= sys.version_info[:2] <= (3, 12)))")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0) {
          return candidate.toString();
        }
      }
    }
    throw new IOException("genai-bench needs Python 3.10 to 3.12 on PATH (python3 on PATH is not)");
  }

  private static void run(Path log, String... command) throws IOException, InterruptedException {
    Files.writeString(log, "$ " + String.join(" ", command) + "\n", java.nio.file.StandardOpenOption.APPEND);
    Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    try {
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IOException(command[0] + " did not finish in 30 minutes; see " + log);
      }
    } catch (InterruptedException e) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw e;
    }
    if (p.exitValue() != 0) {
      List<String> lines = Files.readAllLines(log);
      throw new IOException(command[0] + " exited with " + p.exitValue() + ": "
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size())) + " (log " + log + ")");
    }
  }
}
