package dev.modelplane.cli;

import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import dev.modelplane.operator.modelsource.fetch.DownloadResult;
import dev.modelplane.operator.modelsource.fetch.FetchException;
import dev.modelplane.operator.ome.modelagent.StoreFetch;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane fetch}: downloads what a storage URI holds into a directory, as the model agent would, e.g. a
 * BenchmarkJob's dataset in an init container. Credentials come from a mounted Secret (one file per key).
 */
@Command(
    name = "fetch",
    mixinStandardHelpOptions = true,
    description = {"Downloads every file under a storage URI (hf://, s3://, oci://, gs://, az://, github://) into a "
        + "directory, resuming an earlier partial run and verifying each store's checksums.",
        "Exit code 0 when every file is in place, 1 when the download failed (the reason on one line)."})
final class FetchCommand implements Callable<Integer> {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--storage-uri", required = true, paramLabel = "URI", description = "What to download, in OME's "
      + "storage URI form.")
  String storageUri;

  @Option(names = "--dest", required = true, paramLabel = "DIR", description = "The directory to download into.")
  Path dest;

  @Option(names = "--parameter", paramLabel = "KEY=VALUE", description = "A storage parameter (endpoint, region, "
      + "auth, ...), as in spec.storage.parameters; repeatable.")
  Map<String, String> parameters = new LinkedHashMap<>();

  @Option(names = "--secret-dir", paramLabel = "DIR", description = "A Secret mounted as files: each file is one key "
      + "of the credentials (default: anonymous access).")
  Path secretDir;

  @Option(names = "--hf-endpoint", description = "Hugging Face Hub or mirror for hf:// (default: $HF_ENDPOINT, "
      + "else https://huggingface.co).")
  URI hfEndpoint;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    URI hub = hfEndpoint != null ? hfEndpoint : URI.create(System.getenv().getOrDefault("HF_ENDPOINT",
        "https://huggingface.co"));
    try {
      DownloadResult result = StoreFetch.fetch(storageUri, parameters, secretDir == null ? null : secret(secretDir),
          dest, hub, p -> progress(err, p), () -> false);
      spec.commandLine().getOut().printf("fetched %s into %s: %d files (%d downloaded, %d bytes, %d resumed)%n",
          storageUri, dest, result.files(), result.downloadedFiles(), result.downloadedBytes(),
          result.resumedBytes());
      spec.commandLine().getOut().flush();
      return 0;
    } catch (FetchException e) {
      err.println("modelplane fetch: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private static void progress(PrintWriter err, DownloadProgress p) {
    err.printf("%s %d/%d files, %d/%d bytes%n", p.phase(), p.completedFiles(), p.totalFiles(), p.completedBytes(),
        p.totalBytes());
    err.flush();
  }

  /** A mounted Secret's keys: its regular files (not the {@code ..data} links Kubernetes adds). */
  static Map<String, String> secret(Path dir) throws IOException {
    Map<String, String> data = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        String name = f.getFileName().toString();
        if (!name.startsWith("..") && Files.isRegularFile(f)) {
          data.put(name, Files.readString(f, StandardCharsets.UTF_8));
        }
      }
    }
    return data;
  }
}
