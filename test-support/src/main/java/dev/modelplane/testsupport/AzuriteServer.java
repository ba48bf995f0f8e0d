package dev.modelplane.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assumptions;

/**
 * Azurite's Blob service (the Azure Storage emulator, which checks Shared Key and SAS signatures) on a free
 * 127.0.0.1 port behind a {@link ThrottlingProxy}, with the emulator's well-known account and a container
 * {@value #CONTAINER}, its data in a directory of the test's choosing. Addresses are path-style
 * ({@code http://127.0.0.1:<port>/devstoreaccount1/<container>/<blob>}). The launcher comes from
 * {@code $MODELPLANE_AZURITE_BIN} (or the system property {@code modelplane.azurite.bin}), else from the cache
 * {@code hack/azurite/install.sh --check} reports. Writes are signed by the caller's Shared Key code (the project's
 * own signer lives in the operator, which this module does not depend on). {@link #close()} stops only the process
 * this class started, by its PID. Telemetry is off: the emulator never reaches beyond loopback.
 */
public final class AzuriteServer implements TestModelStore {
  /** The emulator's account. */
  public static final String ACCOUNT = "devstoreaccount1";
  /** The emulator account's published key (every Azurite has it; not a secret). */
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  /** The container created at start. */
  public static final String CONTAINER = "models";
  public static final String LAUNCHER = "azurite-blob";
  private static final Duration STARTUP = Duration.ofSeconds(60);

  /** Signs one request with {@link #ACCOUNT} and {@link #ACCOUNT_KEY} (Shared Key). */
  @FunctionalInterface
  public interface Signer {
    /**
     * The {@code Authorization} header value.
     *
     * @param uri the request URI with its path and query as sent
     * @param headers every header sent that the signature covers, {@code Content-Length} included
     */
    String authorization(String method, URI uri, Map<String, String> headers);
  }

  private final Process process;
  private final int port;
  private final Path log;
  private final Signer signer;
  private ThrottlingProxy proxy;

  private AzuriteServer(Process process, int port, Path log, Signer signer) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.signer = signer;
  }

  /** Starts Azurite storing into {@code dir}; skips (or under CI fails) the calling test when it is not installed. */
  public static AzuriteServer startOrSkip(Path dir, Signer signer) throws IOException {
    Optional<Path> launcher = findLauncher();
    if (launcher.isEmpty()) {
      String why = "Azurite is not installed: run hack/azurite/install.sh (needs Node.js 20+ and npm) or set "
          + "MODELPLANE_AZURITE_BIN to the directory holding " + LAUNCHER;
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no Azurite: " + why);
      }
      System.err.println("[modelplane] Azure Blob tests skipped: " + why);
      Assumptions.abort("skipped: " + why);
    }
    IOException last = null;
    for (int tries = 0; tries < 3; tries++) {
      try {
        return startOnce(launcher.get(), dir, signer);
      } catch (IOException e) {
        last = e; // most likely the free port was taken between probe and bind; try another
      }
    }
    throw last;
  }

  /** The launcher, if it can be had without installing. */
  public static Optional<Path> findLauncher() {
    return AzuriteLauncher.find(LAUNCHER);
  }

  private static AzuriteServer startOnce(Path launcher, Path dir, Signer signer) throws IOException {
    Path data = Files.createDirectories(dir.resolve("azurite-" + System.nanoTime()));
    Path log = data.resolve("azurite.log");
    int port = FreePorts.pick();
    List<String> command = List.of(launcher.toString(), "--blobHost", "127.0.0.1", "--blobPort",
        Integer.toString(port), "--location", data.toString(), "--disableTelemetry");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    AzuriteServer server = new AzuriteServer(process, port, log, signer);
    try {
      await().atMost(STARTUP).pollInterval(Duration.ofMillis(100))
          .until(() -> !process.isAlive() || server.answers());
    } catch (ConditionTimeoutException e) {
      server.close();
      throw new IOException("Azurite did not answer on 127.0.0.1:" + port + " within " + STARTUP.toSeconds()
          + " s: " + server.logTail(), e);
    }
    if (!process.isAlive()) {
      throw new IOException("Azurite exited with " + process.exitValue() + ": " + server.logTail());
    }
    server.proxy = ThrottlingProxy.to(port);
    server.createContainer(CONTAINER, false);
    return server;
  }

  /** {@code http://127.0.0.1:<proxy port>/devstoreaccount1}: the path-style Blob endpoint, through the proxy. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxy.port() + "/" + ACCOUNT);
  }

  /** The process id, to show the test stops only its own process. */
  public long pid() {
    return process.pid();
  }

  /** Creates a container; with {@code publicRead} anyone may list and read it without credentials. */
  public void createContainer(String name, boolean publicRead) throws IOException {
    Map<String, String> headers = publicRead ? Map.of("x-ms-blob-public-access", "container") : Map.of();
    writer().send("PUT", "/" + name, "restype=container", headers, new byte[0], 201);
  }

  /** Stores {@code data} as blob {@code name} of {@code container} (Put Blob, a block blob). */
  public void putBlob(String container, String name, byte[] data) throws IOException {
    writer().send("PUT", "/" + container + "/" + name, "", Map.of("x-ms-blob-type", "BlockBlob"), data,
        201);
  }

  private AzuriteWriter writer() {
    return new AzuriteWriter(endpoint(), signer);
  }

  @Override
  public String scheme() {
    return "az";
  }

  @Override
  public String storageUri(String prefix) {
    return "az://" + ACCOUNT + "/" + CONTAINER + "/" + prefix;
  }

  @Override
  public Map<String, String> parameters() {
    return Map.of("endpoint", endpoint().toString());
  }

  @Override
  public Map<String, String> secretData() {
    return Map.of("AZURE_STORAGE_ACCOUNT_KEY", ACCOUNT_KEY);
  }

  @Override
  public void put(String prefix, String path, byte[] data) throws IOException {
    putBlob(CONTAINER, prefix + "/" + path, data);
  }

  /**
   * Puts the blob, then sets its {@code Content-MD5} property to the other bytes' MD5 with Set Blob Properties: Azure
   * and Azurite check an MD5 sent with Put Blob against the body, but store the one Set Blob Properties gives as is.
   */
  @Override
  public void putWithWrongChecksum(String prefix, String path, byte[] data, byte[] announcedAs) throws IOException {
    if (data.length != announcedAs.length) {
      throw new IllegalArgumentException("the announced bytes must be as long as the stored ones");
    }
    put(prefix, path, data);
    writer().send("PUT", "/" + CONTAINER + "/" + prefix + "/" + path, "comp=properties",
        Map.of("x-ms-blob-content-md5", AzuriteWriter.md5Base64(announcedAs)), new byte[0], 200);
  }

  @Override
  public void throttle(long bytesPerSecond) {
    proxy.throttle(bytesPerSecond);
  }

  /** Whether Azurite accepts connections and answers HTTP. */
  private boolean answers() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write(("GET /" + ACCOUNT + "?comp=list HTTP/1.1\r\nHost: 127.0.0.1:" + port
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      byte[] head = socket.getInputStream().readNBytes(12);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 ");
    } catch (IOException e) {
      return false;
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  @Override
  public void close() throws IOException {
    if (proxy != null) {
      proxy.close();
    }
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
