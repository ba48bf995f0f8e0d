package dev.modelplane.operator.render;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.isvc.ClusterFacts;
import dev.modelplane.operator.llmkube.isvc.IsvcObjects;
import dev.modelplane.operator.llmkube.isvc.IsvcValidator;
import dev.modelplane.operator.llmkube.isvc.ModelGates;
import dev.modelplane.operator.llmkube.isvc.ServingPlan;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.ome.benchmark.BenchmarkPreview;
import dev.modelplane.operator.ome.storage.BaseModelValidator;
import dev.modelplane.operator.otterscale.modelservice.ModelServicePlan;
import dev.modelplane.operator.otterscale.modelservice.ModelServicePlanner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code modelplane render}: the objects the operator would create for a set of manifests, without a cluster
 * (LLMKube and OME InferenceServices, OtterScale ModelServices).
 * InferenceServices are resolved against the Models in the same manifests (same namespace and name, treated as
 * Ready); the builders are the operator's. What differs from a live cluster: fields the API server sets, owner
 * references (they need the live uid), and checks that need cluster state (node GPU capacity, PriorityClasses).
 */
public final class ManifestRenderer {
  private ManifestRenderer() {
  }

  /**
   * The rendered objects and what kept some manifests from rendering.
   *
   * @param objects the objects, per InferenceService in manifest order (a shared cache claim appears once)
   * @param messages warnings and errors, one line each, prefixed with the InferenceService
   * @param failed whether some InferenceService could not be rendered
   */
  public record Result(List<HasMetadata> objects, List<String> messages, boolean failed) {
    /** The objects as a YAML stream. */
    public String yaml() {
      StringBuilder out = new StringBuilder();
      for (HasMetadata object : objects) {
        out.append(Yaml.write(object));
      }
      return out.toString();
    }
  }

  private static final String OME = BaseModel.GROUP + "/" + BaseModel.VERSION;
  private static final String OTTERSCALE = ModelService.GROUP + "/" + ModelService.VERSION;
  /** The OME kinds render reads besides base models: the services and what they refer to. */
  private static final Map<String, Class<? extends HasMetadata>> OME_KINDS = Map.of(
      "InferenceService", dev.modelplane.api.ome.v1beta1.InferenceService.class,
      "ServingRuntime", dev.modelplane.api.ome.v1beta1.ServingRuntime.class,
      "ClusterServingRuntime", dev.modelplane.api.ome.v1beta1.ClusterServingRuntime.class,
      "FineTunedWeight", dev.modelplane.api.ome.v1beta1.FineTunedWeight.class,
      "BenchmarkJob", dev.modelplane.api.ome.v1beta1.BenchmarkJob.class);
  private static final java.util.Set<String> CLUSTER_SCOPED = java.util.Set.of("ClusterBaseModel",
      "ClusterServingRuntime", "FineTunedWeight");

  /** Parses YAML documents into the kinds {@code render} understands; other kinds are skipped with a message. */
  public static List<HasMetadata> parse(String yaml, List<String> messages) {
    List<HasMetadata> out = new ArrayList<>();
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      if (doc.isBlank() || doc.lines().allMatch(l -> l.isBlank() || l.trim().startsWith("#"))) {
        continue;
      }
      Map<?, ?> map = Serialization.unmarshal(doc, Map.class);
      if (map == null) {
        continue;
      }
      String apiVersion = String.valueOf(map.get("apiVersion"));
      String kind = String.valueOf(map.get("kind"));
      String group = InferenceService.GROUP + "/" + InferenceService.VERSION;
      if (group.equals(apiVersion) && "InferenceService".equals(kind)) {
        out.add(Serialization.unmarshal(doc, InferenceService.class));
      } else if (group.equals(apiVersion) && "Model".equals(kind)) {
        out.add(Serialization.unmarshal(doc, Model.class));
      } else if (OME.equals(apiVersion) && "BaseModel".equals(kind)) {
        out.add(Serialization.unmarshal(doc, BaseModel.class));
      } else if (OME.equals(apiVersion) && "ClusterBaseModel".equals(kind)) {
        out.add(Serialization.unmarshal(doc, ClusterBaseModel.class));
      } else if (OME.equals(apiVersion) && OME_KINDS.containsKey(kind)) {
        out.add(Serialization.unmarshal(doc, OME_KINDS.get(kind)));
      } else if (OTTERSCALE.equals(apiVersion) && "ModelService".equals(kind)) {
        out.add(Serialization.unmarshal(doc, ModelService.class));
      } else {
        messages.add("skipped " + kind + " (" + apiVersion + "): render expands LLMKube and OME InferenceServices, "
            + "OME BenchmarkJobs and OtterScale ModelServices, and checks OME base models");
      }
    }
    return out;
  }

  /** Renders manifests; those without a namespace go to {@code defaultNamespace}. */
  public static Result render(List<HasMetadata> manifests, OperatorSettings settings, String defaultNamespace) {
    Map<String, Model> models = new LinkedHashMap<>();
    List<InferenceService> services = new ArrayList<>();
    Map<String, HasMetadata> baseModels = new LinkedHashMap<>();
    List<String> messages = new ArrayList<>();
    boolean failed = false;
    for (HasMetadata manifest : manifests) {
      if (manifest.getMetadata().getNamespace() == null && !CLUSTER_SCOPED.contains(manifest.getKind())) {
        manifest.getMetadata().setNamespace(defaultNamespace);
      }
      if (manifest instanceof BaseModel || manifest instanceof ClusterBaseModel) {
        // Base models create nothing themselves (the model agents download them); they are checked and kept for
        // the kinds that refer to them.
        failed |= checkBaseModel(manifest, messages);
        baseModels.put(manifest.getKind() + "/" + key(manifest), manifest);
      }
      if (manifest instanceof Model model) {
        models.put(key(model), model);
      } else if (manifest instanceof InferenceService isvc) {
        services.add(isvc);
      }
    }
    Map<String, HasMetadata> objects = new LinkedHashMap<>();
    for (InferenceService isvc : services) {
      String who = "InferenceService " + isvc.getMetadata().getNamespace() + "/" + isvc.getMetadata().getName();
      Model model = models.get(isvc.getMetadata().getNamespace() + "/" + isvc.getSpec().modelRef());
      if (model == null) {
        messages.add(who + ": error: spec.modelRef: Model " + isvc.getSpec().modelRef() + " is not in the given files");
        failed = true;
        continue;
      }
      String draftRef = ModelGates.draftRef(isvc);
      Model draft = draftRef == null ? null : models.get(isvc.getMetadata().getNamespace() + "/" + draftRef);
      if (draftRef != null && draft == null) {
        messages.add(who + ": error: spec.speculativeDecoding.draftModelRef: Model " + draftRef
            + " is not in the given files");
        failed = true;
        continue;
      }
      try {
        ModelLayout.of(model, settings.huggingFaceEndpoint());
        if (draft != null) {
          ModelLayout.of(draft, settings.huggingFaceEndpoint());
        }
      } catch (IllegalArgumentException e) {
        messages.add(who + ": error: a Model is invalid: " + e.getMessage());
        failed = true;
        continue;
      }
      List<FieldProblem> problems = IsvcValidator.validate(isvc, model, draft, ClusterFacts.UNKNOWN);
      boolean fatal = false;
      for (FieldProblem p : problems) {
        messages.add(who + ": " + (p.fatal() ? "error: " : "warning: ") + p.describe());
        fatal |= p.fatal();
      }
      if (fatal) {
        failed = true;
        continue;
      }
      for (HasMetadata object : IsvcObjects.build(ServingPlan.of(isvc, model, draft, settings), null).all()) {
        objects.putIfAbsent(object.getKind() + "/" + key(object), object);
      }
    }
    List<HasMetadata> ome = new ArrayList<>();
    failed |= OmeRenderer.render(manifests, settings, ome, messages);
    for (HasMetadata object : ome) {
      objects.putIfAbsent(object.getKind() + "/" + key(object), object);
    }
    for (HasMetadata manifest : manifests) {
      if (manifest instanceof dev.modelplane.api.ome.v1beta1.BenchmarkJob benchmark) {
        BenchmarkPreview.Preview preview = BenchmarkPreview.preview(benchmark, settings);
        messages.add("BenchmarkJob " + benchmark.getMetadata().getNamespace() + "/" + benchmark.getMetadata().getName()
            + ": " + (preview.error() ? "error: " : "") + preview.message());
        failed |= preview.error();
        if (preview.job() != null) {
          objects.putIfAbsent(preview.job().getKind() + "/" + key(preview.job()), preview.job());
        }
      }
      if (manifest instanceof ModelService ms) {
        List<String> missing = ModelServicePlanner.missingFields(ms);
        if (!missing.isEmpty()) {
          messages.add("ModelService " + ms.getMetadata().getNamespace() + "/" + ms.getMetadata().getName()
              + ": error: required but missing: " + String.join(", ", missing));
          failed = true;
          continue;
        }
        ModelServicePlan plan = ModelServicePlanner.plan(ms, settings.modelService(), settings.securityDefaults());
        for (HasMetadata object : plan.owned()) {
          objects.putIfAbsent(object.getKind() + "/" + key(object), object);
        }
        for (HasMetadata object : plan.clusterScoped()) {
          objects.putIfAbsent(object.getKind() + "/" + key(object), object);
        }
      }
    }
    return new Result(List.copyOf(objects.values()), List.copyOf(messages), failed);
  }

  /** A base model's storage problems as error lines; true when one is fatal. */
  @SuppressWarnings("unchecked")
  private static boolean checkBaseModel(HasMetadata model, List<String> messages) {
    var spec = ((io.fabric8.kubernetes.client.CustomResource<BaseModelSpec, ?>) model).getSpec();
    String who = model.getKind() + " " + (model.getMetadata().getNamespace() == null ? ""
        : model.getMetadata().getNamespace() + "/") + model.getMetadata().getName();
    boolean fatal = false;
    for (FieldProblem p : BaseModelValidator.validate(spec, model instanceof ClusterBaseModel)) {
      messages.add(who + ": " + (p.fatal() ? "error: " : "warning: ") + p.describe());
      fatal |= p.fatal();
    }
    return fatal;
  }

  private static String key(HasMetadata o) {
    return Objects.requireNonNullElse(o.getMetadata().getNamespace(), "") + "/" + o.getMetadata().getName();
  }
}
