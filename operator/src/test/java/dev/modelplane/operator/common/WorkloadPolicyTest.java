package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class WorkloadPolicyTest {
  private static final UnaryOperator<String> SAME = UnaryOperator.identity();

  /** A hardened pod template with {@code spec} (YAML lines under {@code spec:}) merged in by the defaults. */
  private static PodTemplateSpec template(String podYaml) {
    PodTemplateSpec t = Serialization.unmarshal("---\n" + podYaml, PodTemplateSpec.class);
    SecurityDefaults.defaults().harden(t.getSpec(), Set.of("server"));
    return t;
  }

  private static List<WorkloadPolicy.Violation> check(String podYaml) {
    return WorkloadPolicy.pod(template(podYaml), SAME, Set.of());
  }

  @Test
  void theHardenedDefaultsPass() {
    assertThat(check("spec: {containers: [{name: server, image: x, ports: [{containerPort: 8080}]}]}")).isEmpty();
  }

  @Test
  void netBindServiceSafeSysctlsAndReadOnlyRootFsPass() {
    assertThat(check("""
        spec:
          securityContext: {runAsUser: 2000, sysctls: [{name: net.ipv4.ip_local_port_range, value: "1024 65000"}]}
          containers:
          - name: server
            image: x
            securityContext: {readOnlyRootFilesystem: true, capabilities: {add: [NET_BIND_SERVICE]}}
        """)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "spec: {hostNetwork: true, containers: [{name: server, image: x}]}|spec.hostNetwork",
      "spec: {hostPID: true, containers: [{name: server, image: x}]}|spec.hostPID",
      "spec: {hostIPC: true, containers: [{name: server, image: x}]}|spec.hostIPC",
      "spec: {securityContext: {runAsUser: 0}, containers: [{name: server, image: x}]}|spec.securityContext.runAsUser",
      "spec: {securityContext: {runAsNonRoot: false}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.runAsNonRoot",
      "spec: {securityContext: {seccompProfile: {type: Unconfined}}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.seccompProfile.type",
      "spec: {securityContext: {appArmorProfile: {type: Unconfined}}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.appArmorProfile.type",
      "spec: {securityContext: {sysctls: [{name: kernel.msgmax, value: '1'}]}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.sysctls[kernel.msgmax]",
      "spec: {containers: [{name: server, image: x, securityContext: {privileged: true}}]}"
          + "|spec.containers[server].securityContext.privileged",
      "spec: {containers: [{name: server, image: x, securityContext: {allowPrivilegeEscalation: true}}]}"
          + "|spec.containers[server].securityContext.allowPrivilegeEscalation",
      "spec: {containers: [{name: server, image: x, securityContext: {runAsUser: 0}}]}"
          + "|spec.containers[server].securityContext.runAsUser",
      "spec: {containers: [{name: server, image: x, securityContext: {runAsNonRoot: false}}]}"
          + "|spec.containers[server].securityContext.runAsNonRoot",
      "spec: {containers: [{name: server, image: x, securityContext: {capabilities: {add: [SYS_ADMIN]}}}]}"
          + "|spec.containers[server].securityContext.capabilities.add[SYS_ADMIN]",
      "spec: {containers: [{name: server, image: x, securityContext: {seccompProfile: {type: Unconfined}}}]}"
          + "|spec.containers[server].securityContext.seccompProfile.type",
      "spec: {containers: [{name: server, image: x, securityContext: {appArmorProfile: {type: Unconfined}}}]}"
          + "|spec.containers[server].securityContext.appArmorProfile.type",
      "spec: {containers: [{name: server, image: x, securityContext: {procMount: Unmasked}}]}"
          + "|spec.containers[server].securityContext.procMount",
      "spec: {containers: [{name: server, image: x, securityContext: {windowsOptions: {hostProcess: true}}}]}"
          + "|spec.containers[server].securityContext.windowsOptions.hostProcess",
      "spec: {containers: [{name: server, image: x, ports: [{containerPort: 80, hostPort: 80}]}]}"
          + "|spec.containers[server].ports[80].hostPort",
      "spec: {initContainers: [{name: init, image: x, securityContext: {privileged: true}}],"
          + " containers: [{name: server, image: x}]}|spec.initContainers[init].securityContext.privileged",
      "spec: {volumes: [{name: root, hostPath: {path: /}}], containers: [{name: server, image: x}]}"
          + "|spec.volumes[root].hostPath",
      "{metadata: {annotations: {container.apparmor.security.beta.kubernetes.io/server: unconfined}},"
          + " spec: {containers: [{name: server, image: x}]}}"
          + "|metadata.annotations[container.apparmor.security.beta.kubernetes.io/server]",
      "{metadata: {annotations: {seccomp.security.alpha.kubernetes.io/pod: unconfined}},"
          + " spec: {containers: [{name: server, image: x}]}}"
          + "|metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]",
  })
  void eachHostOrRootFieldIsRefusedAndNamed(String podYaml, String field) {
    List<WorkloadPolicy.Violation> violations = check(podYaml);
    assertThat(violations).extracting(WorkloadPolicy.Violation::field).contains(field);
    assertThat(violations).allSatisfy(v -> assertThat(v.message())
        .contains("modelplane.dev/workload-policy=privileged"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "spec: {securityContext: {seLinuxOptions: {user: system_u}}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.seLinuxOptions.user",
      "spec: {securityContext: {seLinuxOptions: {role: sysadm_r}}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.seLinuxOptions.role",
      "spec: {securityContext: {seLinuxOptions: {type: spc_t}}, containers: [{name: server, image: x}]}"
          + "|spec.securityContext.seLinuxOptions.type",
      "spec: {containers: [{name: server, image: x, securityContext: {seLinuxOptions: {type: unconfined_t}}}]}"
          + "|spec.containers[server].securityContext.seLinuxOptions.type",
      "spec: {initContainers: [{name: i, image: x, securityContext: {seLinuxOptions: {user: u}}}],"
          + " containers: [{name: server, image: x}]}|spec.initContainers[i].securityContext.seLinuxOptions.user",
      "spec: {containers: [{name: server, image: x, livenessProbe: {httpGet: {host: 169.254.169.254, port: 80}}}]}"
          + "|spec.containers[server].livenessProbe.httpGet.host",
      "spec: {containers: [{name: server, image: x, readinessProbe: {tcpSocket: {host: 10.0.0.1, port: 6443}}}]}"
          + "|spec.containers[server].readinessProbe.tcpSocket.host",
      "spec: {containers: [{name: server, image: x, startupProbe: {httpGet: {host: kubernetes.default, port: 443}}}]}"
          + "|spec.containers[server].startupProbe.httpGet.host",
      "spec: {containers: [{name: server, image: x, lifecycle: {postStart: {httpGet: {host: 127.0.0.1, port: 80}}}}]}"
          + "|spec.containers[server].lifecycle.postStart.httpGet.host",
      "spec: {containers: [{name: server, image: x, lifecycle: {preStop: {tcpSocket: {host: 127.0.0.1, port: 2379}}}}]}"
          + "|spec.containers[server].lifecycle.preStop.tcpSocket.host",
  })
  void seLinuxUserRoleOrOtherTypesAndProbeHostsAreRefused(String podYaml, String field) {
    List<WorkloadPolicy.Violation> v = check(podYaml);
    assertThat(v).extracting(WorkloadPolicy.Violation::field).containsExactly(field);
    assertThat(v.getFirst().message()).endsWith("(label the namespace modelplane.dev/workload-policy=privileged to "
        + "allow it)");
  }

  @Test
  void containerSeLinuxTypesAndProbesWithoutAHostPass() {
    assertThat(check("""
        spec:
          securityContext: {seLinuxOptions: {type: container_t, level: "s0:c123,c456"}}
          containers:
          - name: server
            image: x
            securityContext: {seLinuxOptions: {type: container_init_t}}
            livenessProbe: {httpGet: {path: /health, port: 8080}}
            readinessProbe: {tcpSocket: {port: 8080}}
            lifecycle: {preStop: {httpGet: {path: /drain, port: 8080, host: ""}}}
        """)).isEmpty();
    assertThat(check("spec: {securityContext: {seLinuxOptions: {type: spc_t}}, containers: [{name: server, image: x}]}")
        .getFirst().message()).startsWith("the SELinux type spc_t is refused; only container_engine_t, "
            + "container_init_t, container_kvm_t, container_t are allowed");
  }

  @Test
  void fieldsAreNamedInTheUsersResource() {
    UnaryOperator<String> where = p -> p.replace("spec.containers[server].securityContext", "spec.securityContext");
    var violations = WorkloadPolicy.pod(template(
        "spec: {containers: [{name: server, image: x, securityContext: {privileged: true}}]}"), where, Set.of());
    assertThat(violations).extracting(WorkloadPolicy.Violation::describe).containsExactly(
        "spec.securityContext.privileged: a privileged container is refused (label the namespace "
            + "modelplane.dev/workload-policy=privileged to allow it)");
  }

  @Test
  void theOperatorsOwnModelDirectoryIsAllowedReadOnlyOnly() {
    String pod = """
        spec:
          volumes: [{name: model, hostPath: {path: /mnt/models/llama}}]
          containers:
          - name: server
            image: x
            volumeMounts: [{name: model, mountPath: /mnt/models, readOnly: true}]
        """;
    Set<WorkloadPolicy.OperatorHostPath> ours = Set.of(new WorkloadPolicy.OperatorHostPath("model",
        "/mnt/models/llama"));
    assertThat(WorkloadPolicy.pod(template(pod), SAME, ours)).isEmpty();
    // Another path under the same volume name is the user's, not the operator's.
    assertThat(WorkloadPolicy.pod(template(pod), SAME, Set.of(new WorkloadPolicy.OperatorHostPath("model",
        "/mnt/models/other")))).extracting(WorkloadPolicy.Violation::field)
        .containsExactly("spec.volumes[model].hostPath");
    // A second, writable mount of the operator's directory is refused.
    PodTemplateSpec writable = template(pod.replace("readOnly: true}]", "readOnly: true}, {name: model, "
        + "mountPath: /w}]"));
    assertThat(WorkloadPolicy.pod(writable, SAME, ours)).extracting(WorkloadPolicy.Violation::field)
        .containsExactly("spec.containers[server].volumeMounts[/w]");
  }

  @Test
  void hardeningDoesNotHideTheUsersOptOuts() {
    PodSpec spec = template("""
        spec:
          securityContext: {runAsUser: 0}
          containers: [{name: server, image: x, securityContext: {capabilities: {add: [NET_ADMIN]}}}]
        """).getSpec();
    // The merge keeps them (the user's explicit choices) ...
    assertThat(spec.getSecurityContext().getRunAsUser()).isZero();
    // ... and the policy, which looks at the merged output, refuses them.
    assertThat(WorkloadPolicy.pod(new PodTemplateSpec(null, spec), SAME, Set.of()))
        .extracting(WorkloadPolicy.Violation::field).containsExactlyInAnyOrder("spec.securityContext.runAsUser",
            "spec.containers[server].securityContext.capabilities.add[NET_ADMIN]");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{type: LoadBalancer}|spec.type",
      "{type: NodePort}|spec.type",
      "{externalIPs: [203.0.113.7]}|spec.externalIPs",
      "{loadBalancerIP: 203.0.113.7}|spec.loadBalancerIP",
      "{loadBalancerSourceRanges: [0.0.0.0/0]}|spec.loadBalancerSourceRanges",
  })
  void servicesReachableFromOutsideAreRefused(String specYaml, String field) {
    Service service = Serialization.unmarshal("---\nspec: " + specYaml, Service.class);
    assertThat(WorkloadPolicy.service(service, SAME)).extracting(WorkloadPolicy.Violation::field).contains(field);
  }

  @Test
  void aClusterIpServicePasses() {
    assertThat(WorkloadPolicy.service(Serialization.unmarshal("---\nspec: {type: ClusterIP}", Service.class), SAME))
        .isEmpty();
    assertThat(WorkloadPolicy.service(Serialization.unmarshal("---\nspec: {clusterIP: None}", Service.class), SAME))
        .isEmpty();
  }

  @Test
  void onlyThePrivilegedLabelLiftsThePolicy() {
    assertThat(WorkloadPolicy.lifted(Map.of(WorkloadPolicy.LABEL, "privileged"))).isTrue();
    assertThat(WorkloadPolicy.lifted(Map.of(WorkloadPolicy.LABEL, "restricted"))).isFalse();
    assertThat(WorkloadPolicy.lifted(Map.of(WorkloadPolicy.LABEL, "Privileged"))).isFalse();
    assertThat(WorkloadPolicy.lifted(Map.of())).isFalse();
    assertThat(WorkloadPolicy.lifted((Map<String, String>) null)).isFalse();
  }
}
