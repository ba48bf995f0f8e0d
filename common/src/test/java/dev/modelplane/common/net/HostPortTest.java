package dev.modelplane.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPortTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      127.0.0.1:8000           | 127.0.0.1           | 8000  | 127.0.0.1:8000
      localhost:1              | localhost           | 1     | localhost:1
      model.ns.svc:65535       | model.ns.svc        | 65535 | model.ns.svc:65535
      [::1]:8000               | ::1                 | 8000  | [::1]:8000
      [fd00::5]:9002           | fd00::5             | 9002  | [fd00::5]:9002
      ' 10.0.0.5:80 '          | 10.0.0.5            | 80    | 10.0.0.5:80
      """)
  void parsesHostAndPort(String text, String host, int port, String printed) {
    HostPort hp = HostPort.parse(text);
    assertThat(hp).isEqualTo(new HostPort(host, port));
    assertThat(hp.toString()).isEqualTo(printed);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      localhost        | localhost | 8000
      10.0.0.5         | 10.0.0.5  | 8000
      [::1]            | ::1       | 8000
      ::1              | ::1       | 8000
      fd00::5          | fd00::5   | 8000
      10.0.0.5:9000    | 10.0.0.5  | 9000
      [::1]:9000       | ::1       | 9000
      """)
  void aHostAloneTakesTheDefaultPort(String text, String host, int port) {
    assertThat(HostPort.parse(text, 8000)).isEqualTo(new HostPort(host, port));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', textBlock = """
      localhost         | missing port
      ''                | missing host
      :8000             | missing host
      []:8000           | missing host
      127.0.0.1:        | missing port
      127.0.0.1:http    | port "http" is not a number
      127.0.0.1:0       | port 0 is out of range (1-65535)
      127.0.0.1:65536   | port 65536 is out of range (1-65535)
      127.0.0.1:-1      | port "-1" is not a number
      ::1:8000          | an IPv6 address needs brackets
      [::1              | missing ']'
      [::1]8000         | unexpected text after ']'
      """)
  void errorsNameTheTextAndShowAnExample(String text, String why) {
    assertThatThrownBy(() -> HostPort.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid address \"" + text + "\": " + why + "; use host:port, e.g. 127.0.0.1:8000 or [::1]:8000");
  }

  @Test
  void joinsLikeGo() {
    assertThat(HostPort.join("10.0.0.1", 80)).isEqualTo("10.0.0.1:80");
    assertThat(HostPort.join("fd00::1", 80)).isEqualTo("[fd00::1]:80");
    assertThatThrownBy(() -> new HostPort(" ", 80)).hasMessage("missing host");
    assertThatThrownBy(() -> new HostPort("h", 70000)).hasMessageContaining("out of range");
  }
}
