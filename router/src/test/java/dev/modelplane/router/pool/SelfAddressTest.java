package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Telling this router's own ext_proc address from another picker's. */
class SelfAddressTest {
  @Test
  void anInterfaceAddressWithTheExtProcPortIsSelf() throws Exception {
    AtomicInteger port = new AtomicInteger(9002);
    Set<InetAddress> local = Set.of(InetAddress.getByName("10.1.2.3"), InetAddress.getByName("fd00::5"));
    SelfAddress self = new SelfAddress(port::get, () -> local);
    assertThat(self.test("10.1.2.3:9002")).isTrue();
    assertThat(self.test("[fd00::5]:9002")).isTrue();
    assertThat(self.test("10.1.2.3:9003")).isFalse(); // another process on this host
    assertThat(self.test("10.1.2.4:9002")).isFalse(); // another pod
    assertThat(self.test("picker.example:9002")).isFalse(); // never resolved through DNS
    assertThat(self.test("not an address")).isFalse();
    port.set(-1); // no ext_proc server: this router cannot be anyone's picker
    assertThat(self.test("10.1.2.3:9002")).isFalse();
  }

  @Test
  void theLoopbackInterfaceIsAmongThisHostsAddresses() {
    SelfAddress self = SelfAddress.ofInterfaces(() -> 9002);
    assertThat(self.test("127.0.0.1:9002")).isTrue();
    assertThat(self.test("192.0.2.1:9002")).isFalse(); // TEST-NET-1: on no interface
  }
}
