package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.common.WorkloadPolicy;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class IsvcPolicyTest {
  private static final OperatorSettings ROOTS = OperatorSettings.builder()
      .allowedHostPathRoots(List.of("/mnt/models")).build();

  private static List<WorkloadPolicy.Violation> violations(String isvcSpec, String modelSpec) {
    ServingPlan plan = Plans.plan(isvcSpec, modelSpec, ROOTS);
    return IsvcPolicy.violations(plan, IsvcObjects.build(plan, null));
  }

  private static List<String> fields(String isvcSpec, String modelSpec) {
    return violations(isvcSpec, modelSpec).stream().map(WorkloadPolicy.Violation::field).toList();
  }

  @Test
  void aPlainServiceAndAStagedHostDirectoryPass() {
    assertThat(fields("modelRef: m", Plans.HTTPS_MODEL)).isEmpty();
    // The Model's directory on the node is the operator's own volume (the Model reconciler allowed its root).
    assertThat(fields("modelRef: m", "source: /mnt/models/llama/llama.gguf\nsha256: " + "ab".repeat(32) + "\n"))
        .isEmpty();
  }

  @Test
  void aFileDirectlyInARootWouldMountTheWholeRootAndIsRefused() {
    List<WorkloadPolicy.Violation> v = violations("modelRef: m", "source: file:///mnt/models/x.gguf\n");
    assertThat(v).extracting(WorkloadPolicy.Violation::field).containsExactly("spec.modelRef");
    assertThat(v.getFirst().message()).startsWith("Model m spec.source file:///mnt/models/x.gguf would mount the "
        + "node directory /mnt/models, which is not strictly below an allowed host path root");
  }

  @Test
  void theMountedDirectoryIsCheckedAgainstTheRootsWhateverTheModelStatusSaid() {
    // A Model patched after it became Ready: the pod would be built from the new spec, so the policy checks it.
    assertThat(violations("modelRef: m", "source: /etc/kubernetes/pki/ca.key\n"))
        .extracting(WorkloadPolicy.Violation::field).containsExactly("spec.modelRef");
    assertThat(violations("modelRef: m", "source: /mnt/models-other/d/x.gguf\n"))
        .extracting(WorkloadPolicy.Violation::field).containsExactly("spec.modelRef");
  }

  @Test
  void aDraftModelsNodeDirectoryIsCheckedTooAndNamedByItsReference() {
    ServingPlan plan = ServingPlan.of(TestObjects.isvc("modelRef: m\nspeculativeDecoding: {type: draft, "
        + "draftModelRef: d}"), TestObjects.model("source: /mnt/models/llama/llama.gguf\n"),
        TestObjects.model("d", "source: /mnt/models/draft.gguf\n"), ROOTS);
    List<WorkloadPolicy.Violation> v = IsvcPolicy.violations(plan, IsvcObjects.build(plan, null));
    assertThat(v).extracting(WorkloadPolicy.Violation::field).containsExactly("spec.speculativeDecoding.draftModelRef");
    assertThat(v.getFirst().message()).startsWith("Model d spec.source /mnt/models/draft.gguf would mount the node "
        + "directory /mnt/models,");
  }

  @ParameterizedTest
  @CsvSource({"/mnt/models/a,true", "/mnt/models/a/b,true", "/mnt/models,false", "/mnt/models/,false",
      "/mnt/modelsx/a,false", "/etc,false", "/mnt/models/a/..,false"})
  void aStagedDirectoryMustBeStrictlyBelowARoot(String dir, boolean allowed) {
    assertThat(IsvcPolicy.belowRoot(dir, List.of("/mnt/models/"))).isEqualTo(allowed);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "securityContext: {privileged: true}|spec.securityContext.privileged",
      "securityContext: {runAsUser: 0}|spec.securityContext.runAsUser",
      "securityContext: {capabilities: {add: [SYS_ADMIN]}}|spec.securityContext.capabilities.add[SYS_ADMIN]",
      "securityContext: {allowPrivilegeEscalation: true}|spec.securityContext.allowPrivilegeEscalation",
      "podSecurityContext: {runAsUser: 0}|spec.podSecurityContext.runAsUser",
      "podSecurityContext: {runAsNonRoot: false}|spec.podSecurityContext.runAsNonRoot",
      "extraVolumes: [{name: host, hostPath: {path: /}}]|spec.extraVolumes[host].hostPath",
      "podAnnotations: {container.apparmor.security.beta.kubernetes.io/llama-server: unconfined}"
          + "|spec.podAnnotations[container.apparmor.security.beta.kubernetes.io/llama-server]",
      "endpoint: {type: NodePort, nodePort: 30080}|spec.endpoint.type",
      "endpoint: {type: LoadBalancer}|spec.endpoint.type",
  })
  void theRefusedFieldIsNamedAsTheInferenceServiceSpellsIt(String extra, String field) {
    assertThat(fields("modelRef: m\n" + extra + "\n", Plans.HTTPS_MODEL)).contains(field);
  }

  @Test
  void aWritableExtraMountOfTheStagedModelDirectoryIsRefused() {
    String model = "source: /mnt/models/llama/llama.gguf\n";
    ServingPlan plan = Plans.plan("modelRef: m", model, ROOTS);
    String volume = ModelStagingBuilder.of(plan).volumes().getFirst().getName();
    assertThat(fields("modelRef: m\nextraVolumeMounts: [{name: " + volume + ", mountPath: /w}]\n", model))
        .containsExactly("spec.extraVolumeMounts[/w]");
  }
}
