package dev.modelplane.router.pool;

import dev.modelplane.common.net.HostPort;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether an {@code ip:port} is this router's own ext_proc server: the IP is one of this host's interface addresses
 * and the port is the router's ext_proc port. A pool whose picker resolves to such an address (the Helm chart's pools
 * name the router's own Service) is picked in-process rather than through a call to itself.
 */
public final class SelfAddress implements Predicate<String> {
  private static final Logger LOG = LoggerFactory.getLogger(SelfAddress.class);

  private final IntSupplier extProcPort;
  private final Supplier<Set<InetAddress>> localAddresses;

  /**
   * @param extProcPort the router's ext_proc port once bound; negative while there is none (then nothing is self)
   * @param localAddresses this host's addresses
   */
  public SelfAddress(IntSupplier extProcPort, Supplier<Set<InetAddress>> localAddresses) {
    this.extProcPort = extProcPort;
    this.localAddresses = localAddresses;
  }

  /** Against the addresses of this host's network interfaces, listed at each check. */
  public static SelfAddress ofInterfaces(IntSupplier extProcPort) {
    return new SelfAddress(extProcPort, SelfAddress::interfaceAddresses);
  }

  @Override
  public boolean test(String hostPort) {
    int own = extProcPort.getAsInt();
    HostPort address;
    try {
      address = HostPort.parse(hostPort);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (own <= 0 || address.port() != own || !isIpLiteral(address.host())) {
      return false;
    }
    try {
      return localAddresses.get().contains(InetAddress.getByName(address.host()));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** An IPv4 or IPv6 literal, which {@link InetAddress#getByName} parses without asking DNS. */
  private static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
  }

  static Set<InetAddress> interfaceAddresses() {
    try {
      return NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
          .collect(Collectors.toUnmodifiableSet());
    } catch (SocketException e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("cannot list this host's network interfaces");
      return Set.of();
    }
  }
}
