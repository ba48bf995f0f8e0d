package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code up --monitoring} says when it cannot start Prometheus, and {@code down} with nothing to stop. */
class MonitoringTest {
  @TempDir
  Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void clearProperty() {
    System.clearProperty("modelplane.prometheus.bin");
  }

  private PlatformState platform() {
    return new PlatformState(1, 2, 3, "127.0.0.1", 8080, 9002, 9003, 9090, 8081);
  }

  @Test
  void aBusyMonitoringPortIsNamedWithTheFlag() throws Exception {
    try (ServerSocket busy = new ServerSocket()) {
      busy.bind(new InetSocketAddress("127.0.0.1", 0));
      Monitoring.Options options = new Monitoring.Options();
      options.enabled = true;
      options.port = busy.getLocalPort();
      assertThat(Monitoring.startOrReuse(options, dir, dir.resolve("kubeconfig").toString(), platform(),
          new PrintWriter(out, true), new PrintWriter(err, true))).isEmpty();
      assertThat(err.toString()).contains("port " + busy.getLocalPort() + " on 127.0.0.1 is in use",
          "--monitoring-port");
      assertThat(dir.resolve(Monitoring.FILE)).doesNotExist();
    }
  }

  @Test
  void aPrometheusBinaryThatIsNotExecutableIsNamed() throws Exception {
    Path notABinary = Files.writeString(dir.resolve("not-a-binary"), "text");
    System.setProperty("modelplane.prometheus.bin", notABinary.toString());
    Monitoring.Options options = new Monitoring.Options();
    options.port = 0;
    assertThat(Monitoring.startOrReuse(options, dir, dir.resolve("kubeconfig").toString(), platform(),
        new PrintWriter(out, true), new PrintWriter(err, true))).isEmpty();
    assertThat(err.toString()).contains(Monitoring.BIN_VARIABLE + "=" + notABinary + " is not an executable file");
    assertThat(Files.readString(dir.resolve("prometheus/prometheus.yml"))).contains("127.0.0.1:9090",
        "127.0.0.1:8081");
  }

  @Test
  void downWithoutPrometheusSaysNothing() throws Exception {
    Monitoring.stop(dir, new PrintWriter(out, true));
    assertThat(out.toString()).isEmpty();
  }
}
