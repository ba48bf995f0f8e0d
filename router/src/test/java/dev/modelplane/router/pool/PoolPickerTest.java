package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.gie.v1.EndpointPickerRef;
import dev.modelplane.api.gie.v1.FailureMode;
import dev.modelplane.api.gie.v1.Port;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resolving a pool's endpointPickerRef to the ready addresses of its Service, from EndpointSlices. */
class PoolPickerTest {
  private static final EndpointPickerRef REF = new EndpointPickerRef(null, null, "epp", new Port(9002),
      FailureMode.FailOpen);

  private static Service service(String portName, int port) {
    return new ServiceBuilder().withNewMetadata().withName("epp").withNamespace("ns").endMetadata()
        .withNewSpec().addNewPort().withName("metrics").withPort(9090).endPort()
        .addNewPort().withName(portName).withPort(port).endPort().endSpec().build();
  }

  /** A slice with the given ports (name=number) and endpoints (ip or ip!not-ready). */
  private static EndpointSlice slice(String addressType, List<String> ports, String... endpoints) {
    EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withName("epp-x").withNamespace("ns")
        .addToLabels(PoolPicker.SERVICE_NAME_LABEL, "epp").endMetadata().withAddressType(addressType);
    for (String p : ports) {
      String[] parts = p.split("=");
      b.addNewPort().withName(parts[0].isEmpty() ? null : parts[0]).withPort(Integer.parseInt(parts[1])).endPort();
    }
    for (String e : endpoints) {
      boolean notReady = e.endsWith("!not-ready");
      String ip = e.replace("!not-ready", "");
      b.addNewEndpoint().withAddresses(ip).withNewConditions().withReady(notReady ? false : null).endConditions()
          .endEndpoint();
    }
    return b.build();
  }

  private static PoolPicker resolve(EndpointPickerRef ref, Service service, EndpointSlice... slices) {
    return PoolPicker.resolve("ns", ref, service, List.of(slices), hostPort -> false);
  }

  @Test
  void theServicePortNamesTheSlicePortAndReadyAddressesAreSorted() {
    PoolPicker picker = resolve(REF, service("grpc", 9002),
        slice("IPv4", List.of("metrics=9090", "grpc=19002"), "10.0.0.9", "10.0.0.10", "10.0.0.7!not-ready"),
        slice("IPv4", List.of("grpc=19002"), "10.0.0.2", "10.0.0.9"));
    assertThat(picker.addresses()).containsExactly("10.0.0.10:19002", "10.0.0.2:19002", "10.0.0.9:19002");
    assertThat(picker.name()).isEqualTo("ns/epp");
    assertThat(picker.failOpen()).isTrue();
    assertThat(picker.self()).isFalse();
    assertThat(picker.problem()).isNull();
  }

  @Test
  void anUnnamedServicePortTakesTheSlicesOnlyPortAndIpv6IsBracketed() {
    Service unnamed = new ServiceBuilder().withNewMetadata().withName("epp").endMetadata().withNewSpec()
        .addNewPort().withPort(9002).endPort().endSpec().build();
    assertThat(resolve(REF, unnamed, slice("IPv6", List.of("=9002"), "fd00::1")).addresses())
        .containsExactly("[fd00::1]:9002");
  }

  @Test
  void slicesWithoutThePortAreSkippedAndFqdnSlicesGiveNames() {
    PoolPicker none = resolve(REF, service("grpc", 9002), slice("IPv4", List.of("other=9002"), "10.0.0.3"));
    assertThat(none.addresses()).isEmpty();
    assertThat(none.unavailableMessage())
        .isEqualTo("endpoint picker ns/epp has no ready endpoint (no ready address of port grpc in the Service's "
            + "EndpointSlices)");
    assertThat(resolve(REF, service("grpc", 9002), slice("FQDN", List.of("grpc=9002"), "epp.example")).addresses())
        .containsExactly("epp.example:9002");
  }

  @Test
  void onlyNotReadyEndpointsLeaveNoAddress() {
    PoolPicker picker = resolve(REF, service("grpc", 9002), slice("IPv4", List.of("grpc=9002"), "10.0.0.1!not-ready"));
    assertThat(picker.addresses()).isEmpty();
    assertThat(picker.failureMode()).isEqualTo(FailureMode.FailOpen);
  }

  @Test
  void aMissingServiceOrPortIsNamed() {
    assertThat(resolve(REF, null).unavailableMessage())
        .isEqualTo("endpoint picker ns/epp has no ready endpoint (Service ns/epp not found)");
    assertThat(resolve(REF, service("grpc", 9003), slice("IPv4", List.of("grpc=9003"), "10.0.0.1")).problem())
        .isEqualTo("Service ns/epp has no port 9002");
  }

  @Test
  void aReferentThatIsNotAServiceIsAPickerThatCannotBeReached() {
    EndpointPickerRef custom = new EndpointPickerRef("example.com", "Picker", "epp", new Port(9002), null);
    PoolPicker picker = resolve(custom, service("grpc", 9002), slice("IPv4", List.of("grpc=9002"), "10.0.0.1"));
    assertThat(picker.addresses()).isEmpty();
    assertThat(picker.failureMode()).isEqualTo(FailureMode.FailClose); // GIE's default
    assertThat(picker.problem()).isEqualTo("it is a Picker.example.com; only a Service can be followed");
    EndpointPickerRef explicitCore = new EndpointPickerRef("", "Service", "epp", new Port(9002), null);
    assertThat(resolve(explicitCore, service("grpc", 9002), slice("IPv4", List.of("grpc=9002"), "10.0.0.1"))
        .addresses()).containsExactly("10.0.0.1:9002");
  }

  @Test
  void aServiceWithThisRouterAmongItsAddressesIsThisRouter() {
    PoolPicker picker = PoolPicker.resolve("ns", REF, service("grpc", 9002),
        List.of(slice("IPv4", List.of("grpc=9002"), "10.0.0.1", "10.0.0.2")), "10.0.0.2:9002"::equals);
    assertThat(picker.self()).isTrue();
    assertThat(picker.addresses()).containsExactly("10.0.0.1:9002", "10.0.0.2:9002");
    // Not ready yet itself, the router is still its Service's own picker.
    PoolPicker starting = PoolPicker.resolve("ns", REF, service("grpc", 9002),
        List.of(slice("IPv4", List.of("grpc=9002"), "10.0.0.1", "10.0.0.2!not-ready")), "10.0.0.2:9002"::equals);
    assertThat(starting.self()).isTrue();
    assertThat(starting.addresses()).containsExactly("10.0.0.1:9002");
    assertThat(PoolPicker.resolve("ns", REF, service("grpc", 9002),
        List.of(slice("IPv4", List.of("grpc=9002"), "10.0.0.1", "10.0.0.3!not-ready")), "10.0.0.2:9002"::equals)
        .self()).isFalse();
  }
}
