package dev.modelplane.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Ports nothing listens on at this moment, on the loopback address, for servers a test starts in another process or
 * names in a manifest. The port is free only until something else binds it: a server the test starts itself binds
 * port 0 instead and reads the port it got, and a launcher that cannot should retry on a bind failure.
 */
public final class FreePorts {
  private FreePorts() {
  }

  /** A port free on 127.0.0.1; also a port to point a client at that nothing answers on. */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on the loopback address", e);
    }
  }

  /**
   * A port free on every local address at once (the wildcard), for servers a test binds on several loopback
   * addresses such as 127.0.0.2 and 127.0.0.3 with one port.
   */
  public static int pickOnEveryAddress() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on the wildcard address", e);
    }
  }
}
