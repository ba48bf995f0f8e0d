package dev.modelplane.router.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The official OpenAI SDKs (Python {@code openai} from PyPI, npm {@code openai}), installed once by
 * {@code hack/clients/setup.sh} into {@code ~/.cache/modelplane/clients}.
 *
 * @param python the venv's python
 * @param nodeModules the npm prefix's node_modules
 */
record OpenAiClients(Path python, Path nodeModules) {
  /** Installs or finds the clients; empty (with the reason on stderr) when that is impossible here. */
  static Optional<OpenAiClients> find() {
    Path script = repoRoot().resolve("hack/clients/setup.sh");
    if (!Files.isExecutable(script)) {
      return Optional.empty();
    }
    try {
      Process p = new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
        return Optional.empty();
      }
      String[] lines = out.strip().split("\n");
      return Optional.of(new OpenAiClients(Path.of(lines[0]), Path.of(lines[1])));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  static Path repoRoot() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isDirectory(d.resolve("hack")) && Files.exists(d.resolve("pom.xml"))
          && Files.exists(d.resolve("modelplane"))) {
        return d;
      }
    }
    return Path.of("").toAbsolutePath();
  }

  /** A script from test resources copied into a temp dir (with node_modules linked for ESM resolution). */
  Path script(String resource, Path dir) throws IOException {
    Path target = dir.resolve(resource);
    try (var in = OpenAiClients.class.getResourceAsStream("/e2e/" + resource)) {
      Files.copy(in, target);
    }
    Path link = dir.resolve("node_modules");
    if (!Files.exists(link)) {
      Files.createSymbolicLink(link, nodeModules);
    }
    return target;
  }

  /** Starts a client process; output is read line by line by the caller. */
  Process start(List<String> command) throws IOException {
    return new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
  }
}
