package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.EndpointSpec;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferencePoolEndpoint;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceReference;
import dev.modelplane.api.ome.v1beta1.UrlEndpoint;
import dev.modelplane.operator.BenchmarkSettings;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.ome.isvc.PredictorConversion;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Finds where a benchmark's requests go and whether the target is ready for them: an OME or LLMKube
 * InferenceService (ready, with a URL in its status), an InferencePool with a ready endpoint (reached through the
 * router), or a URL. A target in another namespace than the benchmark's is read only where a
 * {@link ReferenceGrants ReferenceGrant} there allows it, and its namespace's model directories are never mounted.
 */
final class EndpointResolver {
  /** Ready pods asked for the model name before the service URL; a few are enough. */
  private static final int MAX_POD_PROBES = 2;
  private static final String POOL_API = "inference.networking.k8s.io/v1";

  private final KubernetesClient client;
  private final BenchmarkSettings settings;
  private final ReferenceGrants.Lister grants;
  private final ModelPaths paths;

  EndpointResolver(KubernetesClient client, BenchmarkSettings settings, ModelPaths paths) {
    this(client, settings, ReferenceGrants.of(client), paths);
  }

  EndpointResolver(KubernetesClient client, BenchmarkSettings settings, ReferenceGrants.Lister grants,
      ModelPaths paths) {
    this.client = client;
    this.settings = settings;
    this.grants = grants;
    this.paths = paths;
  }

  /**
   * The outcome: a target, what the benchmark waits for, or why it is refused.
   *
   * @param target the endpoint, when it is ready
   * @param waiting why the benchmark cannot start yet, for people
   * @param refused the field and why the operator refuses the target, or null
   */
  record Resolution(BenchmarkTarget target, String waiting, Refusal refused) {
    Resolution(BenchmarkTarget target, String waiting) {
      this(target, waiting, null);
    }

    static Resolution waitingFor(String why) {
      return new Resolution(null, why);
    }
  }

  /**
   * A target the operator refuses to resolve for the benchmark.
   *
   * @param field the spec field, e.g. {@code spec.endpoint.inferenceService.namespace}
   * @param message why, and what would allow it
   */
  record Refusal(String field, String message) {
  }

  /**
   * The base model an OME InferenceService serves.
   *
   * @param key its identity, which names the node label the model agents set where a copy is ready
   * @param spec its spec
   */
  record Model(BaseModelKey key, BaseModelSpec spec) {
  }

  /** The target of a benchmark in {@code namespace}; nothing in another namespace is read before its grant. */
  Resolution resolve(String namespace, EndpointSpec endpoint) {
    if (endpoint.endpoint() != null) {
      return url(endpoint.endpoint());
    }
    if (endpoint.inferencePool() != null) {
      InferencePoolEndpoint ref = endpoint.inferencePool();
      String refusal = ReferenceGrants.refusal(grants, namespace, new ReferenceGrants.Target(
          "inference.networking.k8s.io", "InferencePool", ref.namespace(), ref.name()));
      return refusal != null ? refused("spec.endpoint.inferencePool.namespace", refusal) : pool(ref);
    }
    InferenceServiceReference ref = endpoint.inferenceService();
    String refusal = ReferenceGrants.refusal(grants, namespace, new ReferenceGrants.Target(
        ref.llmkube() ? InferenceServiceReference.LLMKUBE : InferenceServiceReference.OME, "InferenceService",
        ref.namespace(), ref.name()));
    if (refusal != null) {
      return refused("spec.endpoint.inferenceService.namespace", refusal);
    }
    return ref.llmkube() ? llmkube(ref) : ome(namespace, ref);
  }

  private static Resolution refused(String field, String message) {
    return new Resolution(null, null, new Refusal(field, message));
  }

  static Resolution url(UrlEndpoint url) {
    String base = stripSlash(url.url());
    String name = url.modelName() == null || url.modelName().isBlank() ? null : url.modelName();
    return new Resolution(new BenchmarkTarget(base, EnumValues.of(url.apiFormat()), null, name, null,
        List.of(base), true), null);
  }

  private Resolution ome(String namespace, InferenceServiceReference ref) {
    InferenceService isvc = client.resources(InferenceService.class).inNamespace(ref.namespace())
        .withName(ref.name()).get();
    return ome(namespace, ref, isvc, name -> baseModel(ref.namespace(), name),
        labels -> pods(ref.namespace(), labels), model -> paths.decide(claimant(model), models(ref.namespace())));
  }

  /**
   * An OME InferenceService: ready, with a URL; the tokenizer is its model's node directory as the model directory
   * rules decide it (the directory it is served from), unless that is a BaseModel of another namespace than the
   * benchmark's, or a directory the rules refuse, or the model is not on the node (then the model name).
   *
   * @param namespace the benchmark's namespace
   * @param models the BaseModel (namespace first) or ClusterBaseModel of a name, or null
   * @param pods the pods carrying some labels
   * @param dirs the model directory rules the agents and InferenceServices follow, applied to a model
   */
  static Resolution ome(String namespace, InferenceServiceReference ref, InferenceService isvc,
      Function<String, Model> models, Function<Map<String, String>, List<Pod>> pods,
      Function<Model, ModelPaths.Decision> dirs) {
    String what = "InferenceService " + ref.namespace() + "/" + ref.name();
    if (isvc == null) {
      return Resolution.waitingFor(what + " does not exist");
    }
    if (isvc.getStatus() == null || !Conditions.isTrue(isvc.getStatus().conditions(), "Ready")) {
      return Resolution.waitingFor(what + " is not Ready");
    }
    if (isvc.getStatus().url() == null || isvc.getStatus().url().isBlank()) {
      return Resolution.waitingFor(what + " has no URL in its status");
    }
    BenchmarkTarget.Tokenizer tokenizer = null;
    if (isvc.getSpec() != null && isvc.getSpec().model() != null) {
      String model = isvc.getSpec().model().name();
      Model found = models.apply(model);
      if (found == null) {
        return Resolution.waitingFor(what + " serves model " + model + ", which exists neither as a BaseModel in "
            + ref.namespace() + " nor as a ClusterBaseModel");
      }
      BaseModelSpec spec = found.spec();
      boolean othersModel = found.key().namespace() != null && !found.key().namespace().equals(namespace);
      ModelPaths.Decision dir = othersModel || spec == null ? new ModelPaths.Decision.NotOnNode() : dirs.apply(found);
      if (dir instanceof ModelPaths.Decision.OnNode onNode) {
        Map<String, String> nodes = new LinkedHashMap<>(spec.storage().nodeSelector() == null ? Map.of()
            : spec.storage().nodeSelector());
        nodes.put(found.key().labelKey(), "Ready");
        tokenizer = new BenchmarkTarget.Tokenizer(onNode.path().toString(), nodes);
      }
    }
    String base = origin(isvc.getStatus().url());
    Map<String, String> labels = Map.of("ome.io/inferenceservice", ref.name(), "component", "engine");
    return new Resolution(new BenchmarkTarget(base, backend(isvc), "none", null, tokenizer,
        probes(readyPodBases(pods.apply(labels), 0), base)), null);
  }

  /** A model as the directory rules see it; without its creation time it counts as the newest of any overlap. */
  private static ModelPaths.Claimant claimant(Model model) {
    return new ModelPaths.Claimant(model.key(), model.spec() == null ? null : model.spec().storage(), null);
  }

  /** The models whose directories may overlap one of {@code namespace}'s: its BaseModels and the cluster's. */
  private List<ModelPaths.Claimant> models(String namespace) {
    List<ModelPaths.Claimant> all = new ArrayList<>();
    client.resources(BaseModel.class).inNamespace(namespace).list().getItems()
        .forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    client.resources(ClusterBaseModel.class).list().getItems().forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    client.resources(FineTunedWeight.class).list().getItems().forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    return all;
  }

  private Model baseModel(String namespace, String name) {
    BaseModel namespaced = client.resources(BaseModel.class).inNamespace(namespace).withName(name).get();
    if (namespaced != null) {
      return new Model(new BaseModelKey(namespace, name), namespaced.getSpec());
    }
    ClusterBaseModel cluster = client.resources(ClusterBaseModel.class).withName(name).get();
    return cluster == null ? null : new Model(new BaseModelKey(null, name), cluster.getSpec());
  }

  /** The engine's {@code PROTOCOL_VERSION} (a predictor's {@code model.protocolVersion}), else {@code openai}. */
  static String backend(InferenceService isvc) {
    var engine = isvc.getSpec() == null ? null : PredictorConversion.effective(isvc.getSpec()).engine();
    if (engine != null && engine.getRunner() != null && engine.getRunner().getEnv() != null) {
      for (EnvVar e : engine.getRunner().getEnv()) {
        if (PredictorConversion.PROTOCOL_VERSION.equals(e.getName()) && e.getValue() != null
            && !e.getValue().isBlank()) {
          return e.getValue().toLowerCase(Locale.ROOT);
        }
      }
    }
    return "openai";
  }

  private Resolution llmkube(InferenceServiceReference ref) {
    var isvc = client.resources(dev.modelplane.api.llmkube.v1alpha1.InferenceService.class)
        .inNamespace(ref.namespace()).withName(ref.name()).get();
    return llmkube(ref, isvc, labels -> pods(ref.namespace(), labels));
  }

  /** An LLMKube InferenceService: phase Ready, with an endpoint. */
  static Resolution llmkube(InferenceServiceReference ref, dev.modelplane.api.llmkube.v1alpha1.InferenceService isvc,
      Function<Map<String, String>, List<Pod>> pods) {
    String what = "InferenceService " + ref.namespace() + "/" + ref.name() + " (" + ref.apiGroup() + ")";
    if (isvc == null) {
      return Resolution.waitingFor(what + " does not exist");
    }
    var status = isvc.getStatus();
    if (status == null || status.phase() != InferenceServicePhase.READY) {
      return Resolution.waitingFor(what + " is " + (status == null || status.phase() == null ? "not reported yet"
          : EnumValues.of(status.phase())) + ", not Ready");
    }
    if (status.endpoint() == null || status.endpoint().isBlank()) {
      return Resolution.waitingFor(what + " has no endpoint in its status");
    }
    String base = origin(status.endpoint());
    List<String> ready = status.selector() == null ? List.of()
        : readyPodBases(pods.apply(selector(status.selector())), 0);
    return new Resolution(new BenchmarkTarget(base, "openai", "none", null, null, probes(ready, base)), null);
  }

  private Resolution pool(InferencePoolEndpoint ref) {
    GenericKubernetesResource pool = client.genericKubernetesResources(POOL_API, "InferencePool")
        .inNamespace(ref.namespace()).withName(ref.name()).get();
    return pool(ref, pool, labels -> pods(ref.namespace(), labels), settings.routerUrl());
  }

  /** An InferencePool with a ready selected pod, reached through the router at {@code defaultRouter} or its own. */
  static Resolution pool(InferencePoolEndpoint ref, GenericKubernetesResource pool,
      Function<Map<String, String>, List<Pod>> pods, String defaultRouter) {
    String what = "InferencePool " + ref.namespace() + "/" + ref.name();
    if (pool == null) {
      return Resolution.waitingFor(what + " does not exist");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    Object matchLabels = at(pool.getAdditionalProperties(), "spec", "selector", "matchLabels");
    if (matchLabels instanceof Map<?, ?> m) {
      m.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
    }
    int port = 0;
    if (at(pool.getAdditionalProperties(), "spec", "targetPorts") instanceof List<?> ports && !ports.isEmpty()
        && ports.get(0) instanceof Map<?, ?> first && first.get("number") instanceof Number n) {
      port = n.intValue();
    }
    List<String> ready = labels.isEmpty() ? List.of() : readyPodBases(pods.apply(labels), port);
    if (ready.isEmpty()) {
      return Resolution.waitingFor(what + " has no ready endpoint");
    }
    String router = stripSlash(ref.routerUrl() == null ? defaultRouter : ref.routerUrl());
    String base = router + "/inference-pools/" + ref.namespace() + "/" + ref.name();
    return new Resolution(new BenchmarkTarget(base, "openai", "none", null, null, probes(ready, base),
        ref.routerUrl() != null), null);
  }

  /** {@code http://<ip>:<port>} of the ready pods carrying {@code labels}; port 0 takes the first container port. */
  private List<Pod> pods(String namespace, Map<String, String> labels) {
    return client.pods().inNamespace(namespace).withLabels(labels).list().getItems();
  }

  private static List<String> readyPodBases(List<Pod> pods, int port) {
    List<String> bases = new ArrayList<>();
    for (Pod p : pods) {
      if (!ready(p)) {
        continue;
      }
      int p2 = port > 0 ? port : p.getSpec().getContainers().stream()
          .flatMap(c -> c.getPorts() == null ? java.util.stream.Stream.<ContainerPort>empty() : c.getPorts().stream())
          .map(ContainerPort::getContainerPort).filter(Objects::nonNull).findFirst().orElse(8080);
      String ip = p.getStatus().getPodIP();
      bases.add("http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + p2);
    }
    return bases;
  }

  private static boolean ready(Pod p) {
    return p.getStatus() != null && p.getStatus().getPodIP() != null && p.getMetadata().getDeletionTimestamp() == null
        && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && Conditions.TRUE.equals(c.getStatus()));
  }

  private static List<String> probes(List<String> pods, String base) {
    List<String> all = new ArrayList<>(pods.subList(0, Math.min(MAX_POD_PROBES, pods.size())));
    all.add(base);
    return all;
  }

  /** {@code a=b,c=d} into a map (the {@code status.selector} form). */
  static Map<String, String> selector(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        m.put(part.substring(0, eq).trim(), part.substring(eq + 1).replaceFirst("^=", "").trim());
      }
    }
    return m;
  }

  /** The scheme, host and port of {@code url}: OME benchmarks the server's root, whatever path the status shows. */
  static String origin(String url) {
    URI u = URI.create(url.contains("://") ? url : "http://" + url);
    return u.getScheme() + "://" + u.getRawAuthority();
  }

  private static Object at(Map<String, Object> root, String... path) {
    Object o = root;
    for (String p : path) {
      if (!(o instanceof Map<?, ?> m)) {
        return null;
      }
      o = m.get(p);
    }
    return o;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
