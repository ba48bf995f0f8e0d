package dev.modelplane.operator.ome.storage;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which node directory a model may use, the same answer for the operator (status, serving pods' hostPath) and every
 * model agent (download, {@code local://} check):
 *
 * <ul>
 *   <li>a BaseModel downloaded without {@code spec.storage.path} gets {@code <first root>/<namespace>/<name>}; a
 *       ClusterBaseModel {@code <first root>/_cluster/<name>}, a FineTunedWeight
 *       {@code <first root>/_finetunedweights/<name>} (no namespace can be named so);
 *   <li>a directory the spec names ({@code spec.storage.path}, or the path of a {@code local://} URI) must be
 *       absolute, without {@code ..}, and strictly inside a root: for a BaseModel, inside its own namespace's
 *       directory {@code <root>/<namespace>/} of one of the roots (a tenant never reaches another's files); for the
 *       cluster-scoped kinds (created by administrators), anywhere inside a root. Otherwise: reason
 *       {@value #POLICY_REFUSED};
 *   <li>no two models' directories overlap (the same, or one inside the other): the model created first keeps the
 *       directory (then the smaller key), every later one is refused with reason {@value #PATH_CONFLICT} naming
 *       the other.
 * </ul>
 *
 * <p>A refused model is never Ready, never mounted into pods, and no agent writes to or reads from its directory.
 */
public final class ModelPaths {
  /** Reason of a directory outside the allowed roots. */
  public static final String POLICY_REFUSED = "PolicyRefused";
  /** Reason of a directory another model already uses. */
  public static final String PATH_CONFLICT = "PathConflict";
  /** Directory of ClusterBaseModels without a path, under the first root. */
  public static final String CLUSTER_DIR = "_cluster";
  /** Directory of FineTunedWeights without a path, under the first root. */
  public static final String WEIGHTS_DIR = "_finetunedweights";

  private final List<Path> roots;

  /**
   * @param roots absolute directories without {@code ..}; the first is where directories are derived
   * @throws IllegalArgumentException naming a bad root
   */
  public ModelPaths(List<String> roots) {
    List<Path> parsed = new ArrayList<>();
    for (String root : roots) {
      if (root == null || !root.startsWith("/") || hasDotDot(root) || controlChars(root)) {
        throw new IllegalArgumentException("model root '" + root + "' must be an absolute directory without '..'");
      }
      parsed.add(Path.of(root).normalize());
    }
    if (parsed.isEmpty()) {
      throw new IllegalArgumentException("at least one model root is needed");
    }
    this.roots = List.copyOf(parsed);
  }

  /** The roots, normalized. */
  public List<Path> roots() {
    return roots;
  }

  /**
   * A model as the path rules see it.
   *
   * @param key the model
   * @param storage its {@code spec.storage}, or null
   * @param created its {@code metadata.creationTimestamp}, or null (counts as newest)
   */
  public record Claimant(BaseModelKey key, StorageSpec storage, Instant created) {
    public Claimant {
      Objects.requireNonNull(key);
    }

    /** The claimant of a BaseModel, ClusterBaseModel or FineTunedWeight. */
    public static Claimant of(HasMetadata model) {
      StorageSpec storage = switch (model) {
        case BaseModel m -> m.getSpec() == null ? null : m.getSpec().storage();
        case ClusterBaseModel m -> m.getSpec() == null ? null : m.getSpec().storage();
        case FineTunedWeight w -> w.getSpec() == null ? null : w.getSpec().storage();
        default -> throw new IllegalArgumentException("not a base model or fine-tuned weight: " + model.getKind());
      };
      return new Claimant(BaseModelKey.of(model), storage, created(model.getMetadata().getCreationTimestamp()));
    }

    /** Parses an RFC 3339 timestamp; null when absent or unreadable. */
    public static Instant created(String timestamp) {
      if (timestamp == null) {
        return null;
      }
      try {
        return Instant.parse(timestamp);
      } catch (DateTimeParseException e) {
        return null;
      }
    }
  }

  /** The outcome for one model. */
  public sealed interface Decision {
    /** The model's files are in {@code path} on the node; {@code field} is the spec field that chose it. */
    record OnNode(Path path, String field) implements Decision {
    }

    /** The model has no node directory (a claim, an unsupported or unparsable source, no storage). */
    record NotOnNode() implements Decision {
    }

    /**
     * The model may not use its directory.
     *
     * @param reason {@value #POLICY_REFUSED} or {@value #PATH_CONFLICT}
     * @param field the spec field
     * @param message what is wrong, without the field
     */
    record Refused(String reason, String field, String message) implements Decision {
      /** {@code field: message}. */
      public String describe() {
        return field + ": " + message;
      }
    }
  }

  /** The model's directory by the rules of its own spec, without looking at other models. */
  public Decision own(Claimant model) {
    StorageSpec storage = model.storage();
    if (storage == null || storage.storageUri() == null) {
      return new Decision.NotOnNode();
    }
    StorageUri uri;
    try {
      uri = StorageUri.parse(storage.storageUri(), BaseModelValidator.URI_FIELD);
    } catch (StorageUriException e) {
      return new Decision.NotOnNode();
    }
    String field;
    String path;
    switch (uri) {
      case StorageUri.Local local -> {
        field = BaseModelValidator.URI_FIELD;
        path = local.path();
      }
      case StorageUri downloaded when BaseModelValidator.downloaded(downloaded) -> {
        field = BaseModelValidator.PATH_FIELD;
        path = storage.path();
      }
      case StorageUri.Gcs gs -> {
        field = BaseModelValidator.PATH_FIELD;
        path = storage.path();
      }
      case StorageUri.GitHub gh -> {
        field = BaseModelValidator.PATH_FIELD;
        path = storage.path();
      }
      default -> {
        return new Decision.NotOnNode();
      }
    }
    if (path == null || path.isBlank()) {
      if (field.equals(BaseModelValidator.URI_FIELD)) {
        return new Decision.Refused(POLICY_REFUSED, field, "local:// names no directory");
      }
      return new Decision.OnNode(derived(model.key()), field);
    }
    return check(model.key(), path, field);
  }

  /** The directory a model downloaded without {@code spec.storage.path} gets. */
  public Path derived(BaseModelKey key) {
    String area = key.fineTunedWeight() ? WEIGHTS_DIR : key.clusterScoped() ? CLUSTER_DIR : key.namespace();
    return roots.getFirst().resolve(area).resolve(key.name()).normalize();
  }

  private Decision check(BaseModelKey key, String path, String field) {
    if (controlChars(path)) {
      return new Decision.Refused(POLICY_REFUSED, field, "the directory contains a control character");
    }
    if (!path.startsWith("/")) {
      return new Decision.Refused(POLICY_REFUSED, field, "'" + path + "' is not an absolute directory");
    }
    if (hasDotDot(path)) {
      return new Decision.Refused(POLICY_REFUSED, field, "'" + path + "' contains '..'");
    }
    Path normalized = Path.of(path).normalize();
    List<Path> areas = key.clusterScoped() ? roots
        : roots.stream().map(r -> r.resolve(key.namespace()).normalize()).toList();
    for (Path area : areas) {
      if (normalized.startsWith(area) && !normalized.equals(area)) {
        return new Decision.OnNode(normalized, field);
      }
    }
    String allowed = String.join(", ", areas.stream().map(a -> a + "/…").toList());
    return new Decision.Refused(POLICY_REFUSED, field, "'" + path + "' is outside the directories "
        + (key.clusterScoped() ? "models may use" : "BaseModels of namespace " + key.namespace() + " may use")
        + " (" + allowed + ")" + (key.clusterScoped() ? "" : "; leave spec.storage.path empty to download into "
        + derived(key)));
  }

  /**
   * The model's directory among {@code all} (which may include the model itself): its own decision, or
   * {@link Decision.Refused} with {@value #PATH_CONFLICT} when a model created earlier uses an overlapping directory.
   */
  public Decision decide(Claimant model, Collection<Claimant> all) {
    Decision own = own(model);
    if (!(own instanceof Decision.OnNode mine)) {
      return own;
    }
    Optional<Conflict> first = all.stream().filter(o -> !o.key().equals(model.key()) && before(o, model))
        .map(o -> new Conflict(o, own(o))).filter(c -> c.decision() instanceof Decision.OnNode d
            && overlaps(d.path(), mine.path()))
        .min(Comparator.comparing(Conflict::claimant, ModelPaths::compare));
    if (first.isEmpty()) {
      return own;
    }
    Path theirs = ((Decision.OnNode) first.get().decision()).path();
    String relation = theirs.equals(mine.path()) ? "the same directory"
        : mine.path().startsWith(theirs) ? "inside its directory " + theirs : "around its directory " + theirs;
    return new Decision.Refused(PATH_CONFLICT, mine.field(), "'" + mine.path() + "' is " + relation + " of "
        + first.get().claimant().key() + ", which claimed it first; a model's directory may not overlap another's");
  }

  private record Conflict(Claimant claimant, Decision decision) {
  }

  /** Whether two directories are the same or one lies inside the other. */
  public static boolean overlaps(Path a, Path b) {
    return a.startsWith(b) || b.startsWith(a);
  }

  /** Whether {@code a} comes before {@code b}: created earlier, then the smaller key. */
  static boolean before(Claimant a, Claimant b) {
    return compare(a, b) < 0;
  }

  private static int compare(Claimant a, Claimant b) {
    Instant ta = a.created() == null ? Instant.MAX : a.created();
    Instant tb = b.created() == null ? Instant.MAX : b.created();
    int byTime = ta.compareTo(tb);
    return byTime != 0 ? byTime : a.key().toString().compareTo(b.key().toString());
  }

  private static boolean hasDotDot(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.equals("..")) {
        return true;
      }
    }
    return false;
  }

  private static boolean controlChars(String path) {
    return path.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
  }
}
