package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecurityContextMergeTest {
  private static final SecurityDefaults DEFAULTS = SecurityDefaults.defaults();

  private static PodSecurityContext pod(String yaml) {
    return Serialization.unmarshal("---\n" + yaml, PodSecurityContext.class);
  }

  private static SecurityContext container(String yaml) {
    return Serialization.unmarshal("---\n" + yaml, SecurityContext.class);
  }

  private static SecurityContext containerDefaults() {
    return container("{allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: {drop: [ALL]}}");
  }

  @Test
  void withoutAUserContextThePodGetsEveryDefault() {
    PodSecurityContext merged = SecurityContextMerge.pod(null, DEFAULTS.pod());
    assertThat(merged).isEqualTo(DEFAULTS.pod());
    assertThat(merged.getRunAsNonRoot()).isTrue();
    assertThat(merged.getRunAsUser()).isEqualTo(1000L);
    assertThat(merged.getRunAsGroup()).isEqualTo(1000L);
    assertThat(merged.getFsGroup()).isEqualTo(102L);
    assertThat(merged.getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
    assertThat(merged.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
  }

  @Test
  void theUsersPodFieldsAreKeptAndTheDefaultsFillTheRest() {
    PodSecurityContext merged = SecurityContextMerge.pod(pod("""
        runAsUser: 2000
        fsGroup: 3000
        supplementalGroups: [4000]
        seccompProfile: {type: Localhost, localhostProfile: profiles/vllm.json}
        """), DEFAULTS.pod());
    assertThat(merged.getRunAsUser()).isEqualTo(2000L);
    assertThat(merged.getFsGroup()).isEqualTo(3000L);
    assertThat(merged.getSupplementalGroups()).containsExactly(4000L);
    assertThat(merged.getSeccompProfile().getType()).isEqualTo("Localhost");
    assertThat(merged.getSeccompProfile().getLocalhostProfile()).isEqualTo("profiles/vllm.json");
    assertThat(merged.getRunAsNonRoot()).isTrue();
    assertThat(merged.getRunAsGroup()).isEqualTo(1000L);
    assertThat(merged.getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
  }

  @Test
  void runAsNonRootFalseIsAnOptOutThatAlsoKeepsTheImagesUser() {
    PodSecurityContext merged = SecurityContextMerge.pod(pod("runAsNonRoot: false"), DEFAULTS.pod());
    assertThat(merged.getRunAsNonRoot()).isFalse();
    assertThat(merged.getRunAsUser()).isNull();
    assertThat(merged.getRunAsGroup()).isNull();
    assertThat(merged.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(merged.getFsGroup()).isEqualTo(102L);
  }

  @Test
  void runAsUserZeroAsksForRootSoRunAsNonRootIsNotDefaulted() {
    PodSecurityContext merged = SecurityContextMerge.pod(pod("runAsUser: 0"), DEFAULTS.pod());
    assertThat(merged.getRunAsUser()).isZero();
    assertThat(merged.getRunAsNonRoot()).isNull();
    SecurityContext container = SecurityContextMerge.container(container("runAsUser: 0"), containerDefaults());
    assertThat(container.getRunAsUser()).isZero();
    assertThat(container.getRunAsNonRoot()).as("else the pod-level runAsNonRoot stops the container").isFalse();
  }

  @Test
  void anExplicitRunAsNonRootWithUserZeroIsTheUsersOwnContradiction() {
    SecurityContext merged = SecurityContextMerge.container(container("{runAsUser: 0, runAsNonRoot: true}"),
        containerDefaults());
    assertThat(merged.getRunAsNonRoot()).isTrue();
  }

  @Test
  void theUsersContainerFieldsAreKeptAndTheDefaultsFillTheRest() {
    SecurityContext merged = SecurityContextMerge.container(container("""
        readOnlyRootFilesystem: true
        runAsUser: 2000
        seccompProfile: {type: RuntimeDefault}
        """), containerDefaults());
    assertThat(merged.getReadOnlyRootFilesystem()).isTrue();
    assertThat(merged.getRunAsUser()).isEqualTo(2000L);
    assertThat(merged.getRunAsNonRoot()).isTrue();
    assertThat(merged.getAllowPrivilegeEscalation()).isFalse();
    assertThat(merged.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(merged.getCapabilities().getAdd()).isEmpty();
  }

  @Test
  void anExplicitAllowPrivilegeEscalationIsKept() {
    assertThat(SecurityContextMerge.container(container("allowPrivilegeEscalation: true"), containerDefaults())
        .getAllowPrivilegeEscalation()).isTrue();
  }

  @Test
  void capabilitiesKeepTheUsersAddAndDropAllBesideTheUsersDrop() {
    SecurityContext merged = SecurityContextMerge.container(container(
        "capabilities: {add: [NET_BIND_SERVICE, IPC_LOCK], drop: [NET_RAW]}"), containerDefaults());
    assertThat(merged.getCapabilities().getAdd()).containsExactly("NET_BIND_SERVICE", "IPC_LOCK");
    assertThat(merged.getCapabilities().getDrop()).containsExactly("NET_RAW", "ALL");
    SecurityContext lower = SecurityContextMerge.container(container("capabilities: {drop: [all]}"),
        containerDefaults());
    assertThat(lower.getCapabilities().getDrop()).containsExactly("all");
  }

  @Test
  void privilegedOrSysAdminLeaveOutAllowPrivilegeEscalationWhichTheApiServerWouldRefuse() {
    SecurityContext privileged = SecurityContextMerge.container(container("privileged: true"), containerDefaults());
    assertThat(privileged.getPrivileged()).isTrue();
    assertThat(privileged.getAllowPrivilegeEscalation()).isNull();
    SecurityContext sysAdmin = SecurityContextMerge.container(container("capabilities: {add: [SYS_ADMIN]}"),
        containerDefaults());
    assertThat(sysAdmin.getAllowPrivilegeEscalation()).isNull();
    assertThat(sysAdmin.getCapabilities().getDrop()).containsExactly("ALL");
  }

  @Test
  void theInputsAreNotChanged() {
    SecurityContext user = container("capabilities: {add: [IPC_LOCK]}");
    SecurityContext defaults = containerDefaults();
    SecurityContextMerge.container(user, defaults);
    assertThat(user).isEqualTo(container("capabilities: {add: [IPC_LOCK]}"));
    assertThat(defaults).isEqualTo(containerDefaults());
  }

  @Test
  void hardenMergesEveryContainerAndGivesTheServersAHome() {
    PodSpec spec = new PodSpecBuilder()
        .withSecurityContext(pod("runAsUser: 2000"))
        .withInitContainers(new ContainerBuilder().withName("init").withImage("busybox").build())
        .withContainers(new ContainerBuilder().withName("server").withImage("vllm")
                .withSecurityContext(container("readOnlyRootFilesystem: true")).build(),
            new ContainerBuilder().withName("sidecar").withImage("proxy").build(),
            new ContainerBuilder().withName("own-home").withImage("x").addNewEnv().withName("HOME")
                .withValue("/data").endEnv().build())
        .build();
    DEFAULTS.harden(spec, Set.of("server", "own-home"));
    assertThat(spec.getSecurityContext().getRunAsUser()).isEqualTo(2000L);
    assertThat(spec.getSecurityContext().getRunAsNonRoot()).isTrue();
    for (Container c : spec.getInitContainers()) {
      assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(c.getSecurityContext().getRunAsNonRoot()).isTrue();
    }
    Container server = spec.getContainers().getFirst();
    assertThat(server.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(server.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(server.getEnv()).containsExactly(new EnvVar("HOME", SecurityDefaults.HOME_PATH, null));
    assertThat(server.getVolumeMounts()).extracting("name").containsExactly(SecurityDefaults.HOME_VOLUME);
    assertThat(spec.getContainers().get(1).getEnv()).isNullOrEmpty();
    assertThat(spec.getContainers().get(2).getEnv()).containsExactly(new EnvVar("HOME", "/data", null));
    assertThat(spec.getContainers().get(2).getVolumeMounts()).isNullOrEmpty();
    assertThat(spec.getVolumes()).extracting("name").containsExactly(SecurityDefaults.HOME_VOLUME);
    // Idempotent: hardening again changes nothing.
    PodSpec again = Serialization.clone(spec);
    DEFAULTS.harden(again, Set.of("server", "own-home"));
    assertThat(again).isEqualTo(spec);
  }

  @Test
  void aPodOptingOutOfNonRootDoesNotGetItOnItsContainers() {
    PodSpec spec = new PodSpecBuilder().withSecurityContext(pod("runAsNonRoot: false"))
        .withContainers(new ContainerBuilder().withName("server").withImage("vllm").build()).build();
    DEFAULTS.harden(spec, Set.of());
    assertThat(spec.getContainers().getFirst().getSecurityContext().getRunAsNonRoot()).isNull();
    assertThat(spec.getContainers().getFirst().getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
  }

  @Test
  void theDefaultUserMustNotBeRoot() {
    assertThatThrownBy(() -> new SecurityDefaults(0, 1000, 102)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be root");
    assertThatThrownBy(() -> new SecurityDefaults(1000, -1, 102)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> dev.modelplane.operator.OperatorSettings.builder().defaultRunAsUser(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be root");
  }
}
