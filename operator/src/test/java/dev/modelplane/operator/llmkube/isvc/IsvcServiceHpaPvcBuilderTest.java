package dev.modelplane.operator.llmkube.isvc;

import static dev.modelplane.operator.llmkube.isvc.Plans.HTTPS_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.PVC_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

class IsvcServiceHpaPvcBuilderTest {

  @Test
  void serviceTargetsThePortTheServerListensOn() {
    Service vllm = IsvcServiceBuilder.build(plan("modelRef: m\nruntime: vllm", PVC_MODEL));
    assertThat(vllm.getSpec().getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getPort()).isEqualTo(8080);
      assertThat(p.getTargetPort().getIntVal()).isEqualTo(8000);
      assertThat(p.getName()).isEqualTo("http");
    });
    Service tgi = IsvcServiceBuilder.build(plan("modelRef: m\nruntime: tgi", PVC_MODEL));
    assertThat(tgi.getSpec().getPorts().getFirst().getTargetPort().getIntVal()).isEqualTo(80);
    Service llama = IsvcServiceBuilder.build(plan("modelRef: m\nendpoint: {port: 9000}", PVC_MODEL));
    assertThat(llama.getSpec().getPorts().getFirst().getPort()).isEqualTo(9000);
    assertThat(llama.getSpec().getPorts().getFirst().getTargetPort().getIntVal()).isEqualTo(9000);
    Service custom = IsvcServiceBuilder.build(plan("modelRef: m\ncontainerPort: 7000", PVC_MODEL));
    assertThat(custom.getSpec().getPorts().getFirst().getPort()).isEqualTo(8080);
    assertThat(custom.getSpec().getPorts().getFirst().getTargetPort().getIntVal()).isEqualTo(7000);
  }

  @Test
  void serviceTypeSelectorAndName() {
    Service s = IsvcServiceBuilder.build(plan("modelRef: m\nendpoint: {type: NodePort}", PVC_MODEL));
    assertThat(s.getSpec().getType()).isEqualTo("NodePort");
    assertThat(s.getSpec().getSelector()).containsExactly(entry("app", "svc"),
        entry("inference.llmkube.dev/service", "svc"));
    assertThat(IsvcServiceBuilder.build(plan("modelRef: m", PVC_MODEL)).getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(ServingPlan.serviceName("llama.3-1")).isEqualTo("llama-3-1");
  }

  @Test
  void endpointUrl() {
    assertThat(plan("modelRef: m", PVC_MODEL).endpointUrl())
        .isEqualTo("http://svc.ns.svc.cluster.local:8080/v1/chat/completions");
    assertThat(plan("modelRef: m\nendpoint: {port: 9000, path: /v1/completions}", PVC_MODEL).endpointUrl())
        .isEqualTo("http://svc.ns.svc.cluster.local:9000/v1/completions");
  }

  @Test
  void hpaWithTheRuntimesDefaultMetric() {
    HorizontalPodAutoscaler hpa = IsvcHpaBuilder.build(plan("modelRef: m\nautoscaling: {maxReplicas: 4}", PVC_MODEL));
    assertThat(hpa.getMetadata().getName()).isEqualTo("svc");
    assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
    assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo("svc");
    assertThat(hpa.getSpec().getScaleTargetRef().getApiVersion()).isEqualTo("apps/v1");
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(1);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(4);
    assertThat(hpa.getSpec().getMetrics()).singleElement().satisfies(m -> {
      assertThat(m.getType()).isEqualTo("Pods");
      assertThat(m.getPods().getMetric().getName()).isEqualTo("llamacpp:requests_processing");
      assertThat(m.getPods().getTarget().getType()).isEqualTo("AverageValue");
      assertThat(m.getPods().getTarget().getAverageValue()).isEqualTo(new Quantity("2"));
    });
  }

  @Test
  void hpaWithTheUsersMetrics() {
    HorizontalPodAutoscaler hpa = IsvcHpaBuilder.build(plan("""
        modelRef: m
        runtime: vllm
        autoscaling:
          minReplicas: 2
          maxReplicas: 8
          metrics:
            - {type: Pods, name: vllm:num_requests_running, targetAverageValue: "8"}
            - {type: Resource, name: cpu, targetAverageUtilization: 80}
        """, PVC_MODEL));
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(2);
    assertThat(hpa.getSpec().getMetrics()).hasSize(2);
    assertThat(hpa.getSpec().getMetrics().get(0).getPods().getTarget().getAverageValue())
        .isEqualTo(new Quantity("8"));
    assertThat(hpa.getSpec().getMetrics().get(1).getType()).isEqualTo("Resource");
    assertThat(hpa.getSpec().getMetrics().get(1).getResource().getName()).isEqualTo("cpu");
    assertThat(hpa.getSpec().getMetrics().get(1).getResource().getTarget().getAverageUtilization()).isEqualTo(80);
  }

  @Test
  void noHpaWhenStoppedOrWithoutAnyMetric() {
    assertThat(IsvcObjects.build(plan("modelRef: m\nreplicas: 0\nautoscaling: {maxReplicas: 4}", PVC_MODEL), null)
        .hpa()).isNull();
    assertThat(IsvcObjects.build(plan("""
        modelRef: m
        runtime: generic
        image: x/y:1
        autoscaling: {maxReplicas: 4}
        """, PVC_MODEL), null).hpa()).isNull();
    assertThat(IsvcObjects.build(plan("modelRef: m", PVC_MODEL), null).hpa()).isNull();
  }

  @Test
  void cacheClaims() {
    PersistentVolumeClaim shared = IsvcObjects.build(plan("modelRef: m", HTTPS_MODEL), null).cacheClaim();
    assertThat(shared.getMetadata().getName()).isEqualTo("llmkube-model-cache");
    assertThat(shared.getMetadata().getLabels()).containsExactly(entry("app.kubernetes.io/managed-by", "modelplane"));
    assertThat(shared.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(shared.getSpec().getResources().getRequests()).containsExactly(entry("storage", new Quantity("100Gi")));
    assertThat(shared.getSpec().getStorageClassName()).isNull();
    OperatorSettings perService = OperatorSettings.defaults().withModelCache(
        new OperatorSettings.ModelCacheSettings(true, OperatorSettings.CacheMode.PER_SERVICE, "50Gi", "ReadWriteMany",
            "fast"));
    PersistentVolumeClaim owned = IsvcObjects.build(plan("modelRef: m", HTTPS_MODEL, perService), null).cacheClaim();
    assertThat(owned.getMetadata().getName()).isEqualTo("svc-model-cache");
    assertThat(owned.getSpec().getAccessModes()).containsExactly("ReadWriteMany");
    assertThat(owned.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(IsvcObjects.build(plan("modelRef: m", PVC_MODEL), null).cacheClaim()).isNull();
    assertThat(IsvcObjects.build(plan("modelRef: m\nskipModelInit: true", HTTPS_MODEL), null).cacheClaim()).isNull();
  }

  @Test
  void objectsInCreationOrder() {
    assertThat(IsvcObjects.build(plan("modelRef: m\nautoscaling: {maxReplicas: 2}", HTTPS_MODEL), null).all())
        .extracting(o -> o.getKind()).containsExactly("PersistentVolumeClaim", "Deployment", "Service",
            "HorizontalPodAutoscaler");
  }
}
