package dev.modelplane.testsupport;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private final ServerProcess process;
  private final int port;
  private final Signer signer;
  private ThrottlingProxy proxy;

  private AzuriteServer(ServerProcess process, int port, Signer signer) {
    this.process = process;
    this.port = port;
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
    return HackBuild.binary("modelplane.azurite.bin", "MODELPLANE_AZURITE_BIN", "azurite/install.sh", LAUNCHER);
  }

  private static AzuriteServer startOnce(Path launcher, Path dir, Signer signer) throws IOException {
    Path data = Files.createDirectories(dir.resolve("azurite-" + System.nanoTime()));
    Path log = data.resolve("azurite.log");
    int port = FreePorts.pick();
    List<String> command = List.of(launcher.toString(), "--blobHost", "127.0.0.1", "--blobPort",
        Integer.toString(port), "--location", data.toString(), "--disableTelemetry");
    AzuriteServer server = new AzuriteServer(ServerProcess.start(new ProcessBuilder(command), log), port, signer);
    server.process.awaitAnswer("Azurite", port, STARTUP,
        () -> ServerProcess.answersHttp(port, "/" + ACCOUNT + "?comp=list"));
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

  @Override
  public void close() throws IOException {
    if (proxy != null) {
      proxy.close();
    }
    process.stop();
  }
}
