package dev.modelplane.cli.user;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.llmkube.IsvcLabels;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Against a real kube-apiserver, which has no kubelet behind it to serve pod logs: a serving pod whose downloader
 * runs is found by the InferenceService's selector, and the log that cannot be read shows nothing rather than an error.
 */
@WithControlPlane
class DownloadProgressClusterTest {
  @Test
  void aLogThatCannotBeReadShowsNothing(KubeTest test) {
    KubernetesClient client = test.controlPlane().client();
    String ns = test.uniqueName("dl");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    // The test control plane may run no service-account controller: the pod's account is created here.
    client.serviceAccounts().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
        .withNewMetadata().withName("default").endMetadata().build()).createOr(c -> c.update());
    Pod pod = client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("chat-0")
        .withLabels(IsvcLabels.selector("chat")).endMetadata().withNewSpec().addNewInitContainer()
        .withName(DownloadProgress.CONTAINER).withImage("curl").endInitContainer().addNewContainer().withName("server")
        .withImage("server").endContainer().endSpec().build()).create();
    pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending")
        .withInitContainerStatuses(new ContainerStatusBuilder().withName(DownloadProgress.CONTAINER)
            .withImage("curl").withImageID("").withReady(false).withRestartCount(0).withNewState().withNewRunning()
            .endRunning().endState().build()).build());
    client.pods().inNamespace(ns).resource(pod).updateStatus();
    assertThat(client.pods().inNamespace(ns).withLabels(IsvcLabels.selector("chat")).list().getItems()).hasSize(1);

    assertThat(DownloadProgress.ofService(client, ns, "chat")).isEmpty();
    assertThat(DownloadProgress.ofService(client, ns, "other")).isEmpty();
    client.namespaces().withName(ns).delete();
  }
}
