package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The manifests users and tests rely on, against the real apiserver: every sample is accepted as written; every
 * invalid manifest is rejected with the messages it names. The invalid-cel folder holds the cases only CEL rules
 * catch, which the unit tests' schema validator cannot evaluate.
 */
@WithControlPlane
class ManifestsOnApiServerTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<Path> samples() throws IOException {
    return yamlFiles(root().resolve("deploy/samples"));
  }

  static Stream<Path> invalid() throws IOException {
    return Stream.concat(yamlFiles(root().resolve("api/src/test/resources/invalid")),
        yamlFiles(root().resolve("control-plane/src/test/resources/invalid-cel")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void sampleIsAccepted(Path file, KubeTest test) {
    KubernetesClient client = test.client();
    for (JsonNode doc : documents(file)) {
      GenericKubernetesResource resource = toResource(doc, test);
      GenericKubernetesResource created = client.resource(resource).create();
      assertThat(created.getMetadata().getUid()).isNotBlank();
      if (created.getMetadata().getNamespace() == null) {
        client.resource(created).delete(); // cluster-scoped: do not leak into other tests
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidManifestIsRejected(Path file, KubeTest test) throws IOException {
    List<String> expected = Files.readAllLines(file).stream()
        .filter(l -> l.startsWith("# expect:"))
        .map(l -> l.substring("# expect:".length()).strip())
        .filter(e -> !e.startsWith("status")) // status is not written on create: the status subresource owns it
        .toList();
    JsonNode doc = documents(file).get(0);
    GenericKubernetesResource resource = toResource(doc, test);
    KubernetesClient client = test.client();
    if (expected.isEmpty()) {
      client.resource(resource).create();
      return;
    }
    assertThatThrownBy(() -> client.resource(resource).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> {
          KubernetesClientException k = (KubernetesClientException) e;
          assertThat(k.getCode()).isEqualTo(422);
          for (String want : expected) {
            assertThat(k.getMessage()).contains(want);
          }
        });
  }

  private static GenericKubernetesResource toResource(JsonNode doc, KubeTest test) {
    GenericKubernetesResource resource = YAML.convertValue(doc, GenericKubernetesResource.class);
    resource.getMetadata().setNamespace(null);
    if (resource.getMetadata().getName() == null) {
      resource.getMetadata().setName("unnamed");
    }
    // Cluster-scoped objects share one namespace-less space: give them this test's unique name.
    boolean namespaced = test.controlPlane().client().apiextensions().v1().customResourceDefinitions().list()
        .getItems().stream()
        .filter(crd -> crd.getSpec().getNames().getKind().equals(resource.getKind())
            && resource.getApiVersion().startsWith(crd.getSpec().getGroup() + "/"))
        .anyMatch(crd -> "Namespaced".equals(crd.getSpec().getScope()));
    if (!namespaced) {
      resource.getMetadata().setName(test.uniqueName(resource.getMetadata().getName()));
    } else {
      resource.getMetadata().setNamespace(test.namespace());
    }
    return resource;
  }

  private static List<JsonNode> documents(Path file) {
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      List<JsonNode> out = new ArrayList<>();
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          out.add(doc);
        }
      }
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path root() {
    String root = System.getProperty("modelplane.repo.root");
    return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
  }

  private static Stream<Path> yamlFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Stream.empty();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }
}
