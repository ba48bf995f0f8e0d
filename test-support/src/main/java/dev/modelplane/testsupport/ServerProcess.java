package dev.modelplane.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A test server's process, started with its output appended to a log: waits for it to answer on its port, shows the
 * end of its log, and stops it, only it, by its PID.
 */
final class ServerProcess {
  private final Process process;
  private final Path log;

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code builder}'s command with its output and errors appended to {@code log}. */
  static ServerProcess start(ProcessBuilder builder, Path log) throws IOException {
    return new ServerProcess(builder.redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start(), log);
  }

  /** The process id. */
  long pid() {
    return process.pid();
  }

  /**
   * Waits until the server answers or its process ends.
   *
   * @param name how messages name the server, e.g. {@code the S3 server}
   * @throws IOException with the end of the log when the process ended, or did not answer in time (then it is
   *     stopped)
   */
  void awaitAnswer(String name, int port, Duration startup, BooleanSupplier answers) throws IOException {
    try {
      await().atMost(startup).pollInterval(Duration.ofMillis(100))
          .until(() -> !process.isAlive() || answers.getAsBoolean());
    } catch (ConditionTimeoutException e) {
      stop();
      throw new IOException(name + " did not answer on 127.0.0.1:" + port + " within " + startup.toSeconds()
          + " s: " + logTail(), e);
    }
    if (!process.isAlive()) {
      throw new IOException(name + " exited with " + process.exitValue() + ": " + logTail());
    }
  }

  /** Whether something on 127.0.0.1:{@code port} accepts connections and answers HTTP to a GET of {@code path}. */
  static boolean answersHttp(int port, String path) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      byte[] head = socket.getInputStream().readNBytes(12);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 ");
    } catch (IOException e) {
      return false;
    }
  }

  /** The last 20 lines of the log. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  /** Stops the process: asks it to end, then kills it after 10 s. */
  void stop() {
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
