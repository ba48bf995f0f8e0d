package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The upstream CRDs from their Go modules install into the real apiserver, accept a valid object of each kind, and
 * are gone for the next test.
 */
@WithControlPlane
class UpstreamCrdsTest {
  private static GenericKubernetesResource object(String yaml) {
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  @Test
  void eachSetInstallsAndTakesAValidObject(KubeTest test) throws IOException {
    test.installUpstreamCrds(UpstreamCrds.values());
    KubernetesClient client = test.client();
    client.resource(object("""
        apiVersion: leaderworkerset.x-k8s.io/v1
        kind: LeaderWorkerSet
        metadata: {name: lws}
        spec:
          replicas: 1
          leaderWorkerTemplate:
            size: 2
            workerTemplate: {spec: {containers: [{name: w, image: busybox}]}}
        """)).create();
    client.resource(object("""
        apiVersion: serving.knative.dev/v1
        kind: Service
        metadata: {name: ksvc}
        spec: {template: {spec: {containers: [{image: busybox}]}}}
        """)).create();
    client.resource(object("""
        apiVersion: keda.sh/v1alpha1
        kind: ScaledObject
        metadata: {name: so}
        spec:
          scaleTargetRef: {name: d}
          triggers: [{type: prometheus, metadata: {serverAddress: "http://p:9090", query: up, threshold: "1"}}]
        """)).create();
    client.resource(object("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: route}
        spec: {rules: [{backendRefs: [{name: svc, port: 8080}]}]}
        """)).create();
    assertThat(client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet").withName("lws")
        .get().getAdditionalProperties()).containsKey("spec");
    assertThat(client.genericKubernetesResources("keda.sh/v1alpha1", "ScaledObject").withName("so").get())
        .isNotNull();
  }

  @Test
  void aTestThatInstallsNothingDoesNotSeeThem(KubeTest test) throws IOException {
    test.installUpstreamCrds(UpstreamCrds.LEADER_WORKER_SET);
    test.controlPlane().removeCrds(java.util.List.of("leaderworkersets.leaderworkerset.x-k8s.io"));
    assertThatThrownBy(() -> test.client().resource(object("""
        apiVersion: leaderworkerset.x-k8s.io/v1
        kind: LeaderWorkerSet
        metadata: {name: lws}
        spec: {leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: w, image: busybox}]}}}}
        """)).create()).isInstanceOf(KubernetesClientException.class);
  }
}
