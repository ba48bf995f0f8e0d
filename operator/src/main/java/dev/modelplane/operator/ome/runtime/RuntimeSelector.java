package dev.modelplane.operator.ome.runtime;

import dev.modelplane.api.ome.v1beta1.InferenceServiceProtocol;
import dev.modelplane.api.ome.v1beta1.ModelSizeRangeSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import dev.modelplane.api.ome.v1beta1.SupportedModelFormat;
import dev.modelplane.operator.common.EnumValues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Chooses the serving runtime of an OME InferenceService, by OME's rules. A runtime qualifies when it is enabled,
 * supports every accelerator class the service asks for, has a supported format the model matches
 * ({@link FormatMatch}), fits the model's size (when both give one), has at least one format that allows
 * auto-selection, and scores above 0. Namespace runtimes rank before all cluster runtimes; within each, the higher
 * score wins, then (for a model of known size) the size range closest to the model, then the name. A runtime named
 * by the service is checked the same way but needs no auto-selection. No I/O: candidates are given.
 */
public final class RuntimeSelector {
  private RuntimeSelector() {
  }

  /** A qualifying runtime with its score and size distance. */
  private record Match(RuntimeCandidate runtime, long score, double sizeDistance) {
  }

  /** Auto-selection among {@code candidates} (namespaced and cluster-scoped, in any order). */
  public static RuntimeChoice select(RuntimeRequest request, List<RuntimeCandidate> candidates) {
    Optional<RuntimeChoice.NoRuntime> invalid = invalidModel(request);
    if (invalid.isPresent()) {
      return invalid.get();
    }
    List<RuntimeCandidate> ordered = new ArrayList<>(candidates);
    ordered.sort(Comparator.comparing((RuntimeCandidate c) -> c.scope().ordinal())
        .thenComparing(RuntimeCandidate::created, Comparator.nullsLast(Comparator.reverseOrder()))
        .thenComparing(RuntimeCandidate::name));
    List<Match> matches = new ArrayList<>();
    List<RuntimeChoice.Exclusion> excluded = new ArrayList<>();
    Double size = ModelSize.parse(request.model().modelParameterSize()).orElse(null);
    for (RuntimeCandidate candidate : ordered) {
      String reason = exclusion(request, candidate.spec(), true);
      if (reason == null) {
        long score = score(request, candidate.spec(), true);
        if (score <= 0) {
          reason = "no auto-selectable supported format matches the model (score 0)";
        } else {
          matches.add(new Match(candidate, score, sizeDistance(candidate.spec(), size)));
          continue;
        }
      }
      excluded.add(new RuntimeChoice.Exclusion(candidate.name(), candidate.scope(), reason));
    }
    if (matches.isEmpty()) {
      long namespaced = candidates.stream().filter(c -> c.scope() == RuntimeCandidate.Scope.NAMESPACE).count();
      String message = "no runtime found to support model " + request.modelName() + " with format "
          + request.model().modelFormat().name() + " in namespace " + request.namespace() + ". Checked "
          + candidates.size() + " runtimes (" + namespaced + " namespace-scoped, " + (candidates.size() - namespaced)
          + " cluster-scoped)." + (excluded.isEmpty() ? "" : " Excluded runtimes: " + excluded.stream()
              .map(e -> e.runtime() + " (" + e.reason() + ")").collect(Collectors.joining("; ")));
      return new RuntimeChoice.NoRuntime("NoSupportingRuntime", message, excluded);
    }
    matches.sort(Comparator.comparing((Match m) -> m.runtime().scope().ordinal())
        .thenComparing(Match::score, Comparator.reverseOrder())
        .thenComparingDouble(Match::sizeDistance)
        .thenComparing(m -> m.runtime().name()));
    Match best = matches.getFirst();
    return new RuntimeChoice.Chosen(best.runtime(), bestFormat(request, best.runtime().spec(), true).orElse(null),
        best.score(), false);
  }

  /** Validation of the runtime the service names: namespaced first, then cluster-scoped. */
  public static RuntimeChoice named(RuntimeRequest request, String name, List<RuntimeCandidate> candidates) {
    Optional<RuntimeChoice.NoRuntime> invalid = invalidModel(request);
    if (invalid.isPresent()) {
      return invalid.get();
    }
    Optional<RuntimeCandidate> found = candidates.stream()
        .filter(c -> c.name().equals(name)).min(Comparator.comparing(c -> c.scope().ordinal()));
    if (found.isEmpty()) {
      return new RuntimeChoice.NoRuntime("RuntimeNotRecognized", "runtime " + name + " not found in namespace "
          + request.namespace() + " or at cluster scope", List.of());
    }
    RuntimeCandidate runtime = found.get();
    if (Boolean.TRUE.equals(runtime.spec().getDisabled())) {
      return new RuntimeChoice.NoRuntime("RuntimeDisabled", runtime.scope().adjective() + " runtime " + name
          + " is disabled", List.of(new RuntimeChoice.Exclusion(name, runtime.scope(), "runtime is disabled")));
    }
    String reason = exclusion(request, runtime.spec(), false);
    if (reason != null) {
      return new RuntimeChoice.NoRuntime("NoSupportingRuntime", "runtime " + name + " does not support model "
          + request.modelName() + ": " + reason, List.of(new RuntimeChoice.Exclusion(name, runtime.scope(), reason)));
    }
    return new RuntimeChoice.Chosen(runtime, bestFormat(request, runtime.spec(), false).orElse(null),
        score(request, runtime.spec(), false), true);
  }

  /**
   * The best-scoring format of {@code runtime} for the model: among formats that allow auto-selection, or among all
   * of them for a runtime the service named.
   */
  public static Optional<SupportedModelFormat> bestFormat(RuntimeRequest request, ServingRuntimeSpec runtime,
      boolean autoSelectOnly) {
    return formats(runtime).stream().filter(f -> !autoSelectOnly || !Boolean.FALSE.equals(f.autoSelect()))
        .filter(f -> FormatMatch.score(request.model(), f) > 0)
        .max(Comparator.comparingLong(f -> FormatMatch.score(request.model(), f)));
  }

  /** The first reason {@code runtime} does not serve the model, or null when it does. */
  private static String exclusion(RuntimeRequest request, ServingRuntimeSpec runtime, boolean auto) {
    if (auto && Boolean.TRUE.equals(runtime.getDisabled())) {
      return "runtime is disabled";
    }
    Set<String> missing = missingAccelerators(request.acceleratorClasses(), runtime);
    if (!missing.isEmpty()) {
      return "runtime does not support the required accelerator class" + (missing.size() > 1 ? "es " : " ")
          + String.join(", ", missing);
    }
    String protocol = protocolProblem(request.protocol(), runtime);
    if (protocol != null) {
      return protocol;
    }
    List<SupportedModelFormat> formats = formats(runtime);
    if (formats.stream().noneMatch(f -> FormatMatch.mismatches(request.model(), f).isEmpty())) {
      return formatMismatch(request, formats);
    }
    String size = sizeProblem(request.model().modelParameterSize(), runtime.getModelSizeRange());
    if (size != null) {
      return size;
    }
    if (auto && formats.stream().noneMatch(f -> Boolean.TRUE.equals(f.autoSelect()))) {
      return "no supported format allows auto-selection (autoSelect: true)";
    }
    return null;
  }

  /** Why a runtime that lists its protocols does not serve {@code protocol} (case-insensitive), or null. */
  private static String protocolProblem(String protocol, ServingRuntimeSpec runtime) {
    List<InferenceServiceProtocol> served = runtime.getProtocolVersions();
    if (protocol == null || served == null || served.isEmpty()) {
      return null;
    }
    List<String> names = served.stream().filter(Objects::nonNull).map(EnumValues::of).toList();
    return names.stream().anyMatch(protocol::equalsIgnoreCase) ? null : "runtime serves protocolVersions "
        + names + ", not " + protocol + " (the service's PROTOCOL_VERSION)";
  }

  /**
   * Why no format of a runtime matches: every difference of its one format, or, for a runtime with several, those of
   * the closest one (fewest differences) — listing all of them would bury the point in a status condition.
   */
  private static String formatMismatch(RuntimeRequest request, List<SupportedModelFormat> formats) {
    String prefix = "model format '" + FormatMatch.label(request.model()) + "' not in supported formats";
    if (formats.isEmpty()) {
      return prefix + ": the runtime lists none";
    }
    SupportedModelFormat closest = formats.stream()
        .min(Comparator.comparingInt(f -> FormatMatch.mismatches(request.model(), f).size())).orElseThrow();
    String reasons = String.join(", ", FormatMatch.mismatches(request.model(), closest));
    return formats.size() == 1 ? prefix + ": " + reasons : prefix + " (" + formats.size() + " checked); closest"
        + (closest.name() == null ? "" : " (" + closest.name() + ")") + ": " + reasons;
  }

  private static long score(RuntimeRequest request, ServingRuntimeSpec runtime, boolean autoSelectOnly) {
    return bestFormat(request, runtime, autoSelectOnly).map(f -> FormatMatch.score(request.model(), f)).orElse(0L);
  }

  private static Set<String> missingAccelerators(Set<String> required, ServingRuntimeSpec runtime) {
    Set<String> missing = new TreeSet<>(required);
    if (runtime.getAcceleratorRequirements() != null
        && runtime.getAcceleratorRequirements().acceleratorClasses() != null) {
      missing.removeAll(runtime.getAcceleratorRequirements().acceleratorClasses());
    }
    return missing;
  }

  /** Why a model's size is outside a runtime's range, or null (also when either is unknown or unreadable). */
  private static String sizeProblem(String modelSize, ModelSizeRangeSpec range) {
    if (modelSize == null || range == null) {
      return null;
    }
    Optional<Double> size = ModelSize.parse(modelSize);
    if (size.isEmpty()) {
      return "model size " + modelSize + " is not a parameter count like 7B, 560M or 1.5T";
    }
    Optional<Double> min = ModelSize.parse(range.min());
    Optional<Double> max = ModelSize.parse(range.max());
    if (range.min() != null && min.isEmpty() || range.max() != null && max.isEmpty()) {
      return "runtime size range [" + range.min() + ", " + range.max() + "] is not made of sizes like 7B";
    }
    boolean below = min.isPresent() && size.get() < min.get();
    boolean above = max.isPresent() && size.get() > max.get();
    return below || above ? "model size " + modelSize + " is outside supported range [" + bound(range.min()) + ", "
        + bound(range.max()) + "]" : null;
  }

  private static String bound(String value) {
    return value == null ? "unbounded" : value;
  }

  /** OME's tie-break by size: the summed distance of the range's ends from the model's size; 0 without either. */
  private static double sizeDistance(ServingRuntimeSpec runtime, Double size) {
    ModelSizeRangeSpec range = runtime.getModelSizeRange();
    if (size == null || range == null) {
      return 0;
    }
    double min = ModelSize.parse(range.min()).orElse(size);
    double max = ModelSize.parse(range.max()).orElse(size);
    return Math.abs(min - size) + Math.abs(max - size);
  }

  private static Optional<RuntimeChoice.NoRuntime> invalidModel(RuntimeRequest request) {
    if (request.model().modelFormat() == null || request.model().modelFormat().name() == null
        || request.model().modelFormat().name().isBlank()) {
      return Optional.of(new RuntimeChoice.NoRuntime("InvalidModel", "invalid model specification: model "
          + request.modelName() + " has no modelFormat.name, which runtime selection needs", List.of()));
    }
    return Optional.empty();
  }

  private static List<SupportedModelFormat> formats(ServingRuntimeSpec runtime) {
    return runtime.getSupportedModelFormats() == null ? List.of() : runtime.getSupportedModelFormats();
  }

  /** A plain-text report of a choice, for {@code modelplane render}: the runtime, or every exclusion. */
  public static String report(RuntimeChoice choice) {
    return switch (choice) {
      case RuntimeChoice.Chosen chosen -> "runtime: " + chosen.describe()
          + (chosen.format() == null ? "" : "\n  format: " + chosen.format().name());
      case RuntimeChoice.NoRuntime none -> "no runtime (" + none.reason() + "): " + none.message()
          + none.excluded().stream().map(e -> "\n  excluded " + e.scope().kind() + " " + e.runtime() + ": "
              + e.reason()).collect(Collectors.joining());
    };
  }
}
