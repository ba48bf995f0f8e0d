package dev.modelplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.testing.Crds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every name kubectl resolves a resource by (plural, singular, short name) must lead to one kind. kubectl warns on a
 * short name that two kinds claim and then picks one of them; a short name that is another resource's name hides
 * that resource.
 */
class CrdNamesTest {
  /** Resource names (plurals) and short names of the built-in API ({@code kubectl api-resources}, 1.37). */
  static final Set<String> BUILT_IN = Set.of(("apiservices bindings certificatesigningrequests clusterrolebindings "
      + "clusterroles clustertrustbundles componentstatuses configmaps controllerrevisions cronjobs csidrivers "
      + "csinodes csistoragecapacities customresourcedefinitions daemonsets deployments deviceclasses devicetaintrules "
      + "endpoints endpointslices events flowschemas horizontalpodautoscalers ingressclasses ingresses ipaddresses "
      + "jobs leases limitranges localsubjectaccessreviews mutatingadmissionpolicies mutatingadmissionpolicybindings "
      + "mutatingwebhookconfigurations namespaces networkpolicies nodes persistentvolumeclaims persistentvolumes "
      + "podcertificaterequests poddisruptionbudgets pods podtemplates priorityclasses prioritylevelconfigurations "
      + "replicasets replicationcontrollers resourceclaims resourceclaimtemplates resourcequotas resourceslices "
      + "rolebindings roles runtimeclasses secrets selfsubjectaccessreviews selfsubjectreviews "
      + "selfsubjectrulesreviews serviceaccounts servicecidrs services statefulsets storageclasses "
      + "storageversionmigrations subjectaccessreviews tokenreviews validatingadmissionpolicies "
      + "validatingadmissionpolicybindings validatingwebhookconfigurations volumeattachments volumeattributesclasses "
      + "cj cm crd crds cs csr deploy ds ep ev hpa ing ip limits netpol no ns pc pdb po pv pvc quota rc rs sa sc sts "
      + "svc vac").split(" "));

  /**
   * Short names of kinds that run beside ours: KServe's LLMInferenceService (another LLM-serving kind) and Knative's
   * Service (OME's serverless mode creates them).
   */
  static final Map<String, String> NEIGHBOURS = Map.of(
      "llmisvc", "llminferenceservices.serving.kserve.io",
      "ksvc", "services.serving.knative.dev",
      "kservice", "services.serving.knative.dev");

  /**
   * Plurals two upstream projects both chose (llm-d took its objective and rewrite kinds over from the Gateway API
   * Inference Extension under its own group). A bare plural resolves to one group (the other needs
   * {@code plural.group}); renaming either would break every manifest and client written for its upstream.
   */
  static final Map<String, Set<String>> UPSTREAM_SHARED_PLURALS = Map.of(
      "inferenceservices", Set.of("inference.llmkube.dev", "ome.io"),
      "inferenceobjectives", Set.of("inference.networking.x-k8s.io", "llm-d.ai"),
      "inferencemodelrewrites", Set.of("inference.networking.x-k8s.io", "llm-d.ai"));

  @Test
  void everyNameLeadsToOneKind() {
    assertThat(clashes(ours())).isEmpty();
  }

  @Test
  void theInferenceServicesHaveDistinctShortNames() {
    Map<String, List<String>> shortNames = new TreeMap<>();
    ours().forEach(n -> shortNames.put(n.crd(), n.shortNames()));
    assertThat(shortNames).containsEntry("inferenceservices.ome.io", List.of("isvc", "oisvc"))
        .containsEntry("inferenceservices.inference.llmkube.dev", List.of("lisvc"));
  }

  @Test
  void aSharedShortNameOrPluralIsFound() {
    Names llmkube = new Names("inferenceservices.inference.llmkube.dev", "inference.llmkube.dev", "inferenceservices",
        "inferenceservice", "InferenceService", List.of("isvc", "lisvc"));
    Names ome = new Names("inferenceservices.ome.io", "ome.io", "inferenceservices", "inferenceservice",
        "InferenceService", List.of("isvc", "oisvc"));
    Names model = new Names("models.example.com", "example.com", "models", "model", "Model", List.of("mdl"));
    Names otherModel = new Names("models.other.io", "other.io", "models", "model", "Model",
        List.of("svc", "pool", "llmisvc"));
    Names pool = new Names("pools.example.com", "example.com", "pools", "pool", "Pool", List.of("oisvc"));
    assertThat(clashes(List.of(llmkube, ome, model, otherModel, pool))).containsExactlyInAnyOrder(
        "short name isvc is claimed by [inferenceservices.inference.llmkube.dev, inferenceservices.ome.io]",
        "short name oisvc is claimed by [inferenceservices.ome.io, pools.example.com]",
        "plural models is used by [example.com, other.io]",
        "short name svc of models.other.io is a built-in resource name",
        "short name llmisvc of models.other.io is also claimed by llminferenceservices.serving.kserve.io",
        "short name pool of models.other.io is a name of pools.example.com");
  }

  /** What kubectl could not resolve to one kind, one line each. */
  static List<String> clashes(List<Names> crds) {
    List<String> problems = new ArrayList<>();
    Map<String, List<String>> byShortName = new TreeMap<>();
    Map<String, List<String>> byPlural = new TreeMap<>();
    for (Names n : crds) {
      n.shortNames().forEach(s -> byShortName.computeIfAbsent(s, k -> new ArrayList<>()).add(n.crd()));
      byPlural.computeIfAbsent(n.plural(), k -> new ArrayList<>()).add(n.group());
    }
    byShortName.forEach((name, owners) -> {
      if (owners.size() > 1) {
        problems.add("short name " + name + " is claimed by " + owners);
      }
    });
    byPlural.forEach((plural, groups) -> {
      if (groups.size() > 1 && !Set.copyOf(groups).equals(UPSTREAM_SHARED_PLURALS.get(plural))) {
        problems.add("plural " + plural + " is used by " + groups);
      }
    });
    for (Names n : crds) {
      for (String name : List.of(n.plural(), n.singular())) {
        if (BUILT_IN.contains(name)) {
          problems.add(name + " of " + n.crd() + " is a built-in resource name");
        }
      }
      for (String shortName : n.shortNames()) {
        String prefix = "short name " + shortName + " of " + n.crd();
        if (BUILT_IN.contains(shortName)) {
          problems.add(prefix + " is a built-in resource name");
        }
        if (NEIGHBOURS.containsKey(shortName)) {
          problems.add(prefix + " is also claimed by " + NEIGHBOURS.get(shortName));
        }
        crds.stream().filter(other -> other.resourceNames().contains(shortName))
            .forEach(other -> problems.add(prefix + " is a name of " + other.crd()));
      }
    }
    return problems;
  }

  static List<Names> ours() {
    List<Names> names = new ArrayList<>();
    for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
      JsonNode crd = Crds.crd(type);
      JsonNode n = crd.path("spec").path("names");
      List<String> shortNames = new ArrayList<>();
      n.path("shortNames").forEach(s -> shortNames.add(s.asText()));
      names.add(new Names(crd.path("metadata").path("name").asText(), crd.path("spec").path("group").asText(),
          n.path("plural").asText(), n.path("singular").asText(), n.path("kind").asText(), shortNames));
    }
    return names;
  }

  /**
   * The names of one CRD.
   *
   * @param crd the CRD's name ({@code plural.group})
   * @param group the API group
   * @param plural the resource name
   * @param singular the singular name
   * @param kind the kind
   * @param shortNames the short names
   */
  record Names(String crd, String group, String plural, String singular, String kind, List<String> shortNames) {
    /** The names other than short names that kubectl accepts for this resource. */
    Set<String> resourceNames() {
      return new HashSet<>(List.of(plural, singular, kind.toLowerCase(Locale.ROOT)));
    }
  }
}
