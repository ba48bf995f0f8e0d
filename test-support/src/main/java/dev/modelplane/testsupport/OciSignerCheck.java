package dev.modelplane.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The OCI request-signing reference ({@code hack/oci-signer-check}: the official OCI Go SDK's signer behind a JSON
 * interface, see its {@code main.go}). Found in {@code $MODELPLANE_OCI_SIGNER_CHECK_BIN} (a bin directory, or the
 * system property {@code modelplane.oci-signer-check.bin}), else in the cache {@code build.sh --check} reports. Without
 * it the calling test is skipped, or fails under {@code CI=true}.
 */
public final class OciSignerCheck {
  public static final String BINARY = "oci-signer-check";

  private OciSignerCheck() {
  }

  /** The program; skips (or under CI fails) the calling test when it is not built. */
  public static Path requireOrSkip() {
    Optional<Path> bin = find();
    if (bin.isEmpty()) {
      String why = BINARY + " is not built: run hack/oci-signer-check/build.sh (needs Go 1.26+) or set "
          + "MODELPLANE_OCI_SIGNER_CHECK_BIN to its bin directory";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and " + why);
      }
      System.err.println("[modelplane] OCI signer comparison skipped: " + why);
      Assumptions.abort("skipped: " + why);
    }
    return bin.get();
  }

  /** Runs the program on a JSON document and returns its JSON answer. */
  public static String run(Path binary, String input) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(binary.toString()).start();
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
      try {
        return process.getErrorStream().readAllBytes();
      } catch (IOException e) {
        return new byte[0];
      }
    });
    try (OutputStream in = process.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(BINARY + " did not finish within 60 s");
    }
    if (process.exitValue() != 0) {
      throw new IOException(BINARY + " exited with " + process.exitValue() + ": "
          + new String(err.join(), StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The program, if it can be had without building. */
  public static Optional<Path> find() {
    return HackBuild.binary("modelplane.oci-signer-check.bin", "MODELPLANE_OCI_SIGNER_CHECK_BIN",
        "oci-signer-check/build.sh", BINARY);
  }
}
