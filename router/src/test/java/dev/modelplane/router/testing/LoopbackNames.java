package dev.modelplane.router.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.stream.Stream;

/**
 * Test JVMs' name resolver: names under {@value #SUFFIX} are loopback addresses ({@code picker.loopback.test} is
 * 127.0.0.1), every other name and address goes to the JDK's own resolver. The apiserver refuses loopback IPs in
 * EndpointSlices, so a test that needs a slice pointing at a process on loopback uses an FQDN slice with such a name;
 * nothing leaves the machine ({@code .test} is reserved, RFC 2606).
 */
public final class LoopbackNames extends InetAddressResolverProvider {
  /** Names ending in this resolve to 127.0.0.1. */
  public static final String SUFFIX = ".loopback.test";

  @Override
  public InetAddressResolver get(Configuration configuration) {
    InetAddressResolver builtin = configuration.builtinResolver();
    return new InetAddressResolver() {
      @Override
      public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
        if (host.endsWith(SUFFIX) && (policy.characteristics() & LookupPolicy.IPV4) != 0) {
          return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
        }
        return builtin.lookupByName(host, policy);
      }

      @Override
      public String lookupByAddress(byte[] address) throws UnknownHostException {
        return builtin.lookupByAddress(address);
      }
    };
  }

  @Override
  public String name() {
    return "modelplane-test-loopback-names";
  }
}
