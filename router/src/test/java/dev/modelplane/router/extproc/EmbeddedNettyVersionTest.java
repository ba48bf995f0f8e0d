package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * grpc-netty-shaded carries its own copy of Netty, which the build's list of known-vulnerable versions cannot see
 * (it names Maven artifacts). This reads the version the shaded copy records about itself and holds it to the same
 * floor as the Netty the gateway uses.
 */
class EmbeddedNettyVersionTest {
  /** The first 4.2 release without the advisories listed beside Netty in the root pom. */
  private static final int[] FLOOR = {4, 2, 17};

  @Test
  void shadedNettyInGrpcIsNotOlderThanTheFloor() throws IOException {
    Properties versions = new Properties();
    try (InputStream in = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder.class.getClassLoader()
        .getResourceAsStream("META-INF/io.grpc.netty.shaded.io.netty.versions.properties")) {
      assertThat(in).as("grpc-netty-shaded's Netty version file").isNotNull();
      versions.load(in);
    }
    String version = versions.getProperty("netty-common.version");
    assertThat(version).as("netty-common.version").isNotNull().endsWith(".Final");
    assertThat(compare(version, FLOOR)).as("shaded Netty %s against %s", version, "4.2.17.Final")
        .isGreaterThanOrEqualTo(0);
  }

  @Test
  void comparesReleaseNumbersNumerically() {
    assertThat(compare("4.2.9.Final", FLOOR)).isNegative();
    assertThat(compare("4.2.17.Final", FLOOR)).isZero();
    assertThat(compare("4.2.100.Final", FLOOR)).isPositive();
    assertThat(compare("4.3.0.Final", FLOOR)).isPositive();
  }

  private static int compare(String version, int[] floor) {
    String[] parts = version.split("\\.");
    for (int i = 0; i < floor.length; i++) {
      int diff = Integer.compare(Integer.parseInt(parts[i]), floor[i]);
      if (diff != 0) {
        return diff;
      }
    }
    return 0;
  }
}
