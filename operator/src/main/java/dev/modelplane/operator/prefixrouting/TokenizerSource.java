package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the picker finds the tokenizer of a pool's model, which {@code precise-prefix-cache-scorer} needs to name a
 * prompt's blocks as the servers do: the value of the annotation {@value #ANNOTATION} on the resource that owns the
 * pool. {@code configmap:NAME} mounts a ConfigMap holding {@code tokenizer.json} (and {@code tokenizer_config.json},
 * for the chat template) at {@value #DIR}; {@code pvc:CLAIM} or {@code pvc:CLAIM/SUB/PATH} mounts a claim's
 * directory there read-only; {@code word} is the simulator's built-in tokenizer, nothing mounted.
 *
 * @param configMap the ConfigMap's name, or null
 * @param claim the claim's name, or null
 * @param subPath the directory inside the claim ("" for its root)
 */
public record TokenizerSource(String configMap, String claim, String subPath) {
  public static final String ANNOTATION = "modelplane.dev/tokenizer";
  public static final String VOLUME = "tokenizer";
  public static final String DIR = "/tokenizer";
  static final String WORD = "word";
  private static final String NAME = "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?";
  private static final Pattern CONFIG_MAP = Pattern.compile("configmap:(" + NAME + ")");
  private static final Pattern CLAIM = Pattern.compile("pvc:(" + NAME + ")(/[^\\s]*)?");

  /**
   * Reads the annotation's value.
   *
   * @throws IllegalArgumentException naming the annotation and the accepted forms
   */
  public static TokenizerSource parse(String value) {
    String v = value.strip();
    if (v.equals(WORD)) {
      return new TokenizerSource(null, null, "");
    }
    Matcher m = CONFIG_MAP.matcher(v);
    if (m.matches()) {
      return new TokenizerSource(m.group(1), null, "");
    }
    m = CLAIM.matcher(v);
    if (m.matches()) {
      String sub = m.group(3) == null ? "" : m.group(3).replaceAll("^/+|/+$", "");
      if (sub.contains("..")) {
        throw new IllegalArgumentException(ANNOTATION + ": the sub-path of \"" + v + "\" must not contain '..'");
      }
      return new TokenizerSource(null, m.group(1), sub);
    }
    throw new IllegalArgumentException(ANNOTATION + ": \"" + v + "\" is not configmap:NAME, pvc:CLAIM[/PATH] or "
        + WORD);
  }

  /**
   * The router's {@code --tokenizer} flag, without a model name: the picker serves one pool, and a bare source also
   * serves the pool's LoRA adapters, which share their base model's tokenizer (the served name may moreover be an
   * expression such as {@code $(SERVED_MODEL_NAME)} the operator cannot read).
   */
  public String flag() {
    return "--tokenizer=" + (mounted() ? DIR : WORD);
  }

  /** Whether anything is mounted (not the built-in tokenizer). */
  public boolean mounted() {
    return configMap != null || claim != null;
  }

  /** The volume to add to the picker's pod, when {@link #mounted()}. */
  public Volume volume() {
    VolumeBuilder b = new VolumeBuilder().withName(VOLUME);
    return configMap != null ? b.withNewConfigMap().withName(configMap).endConfigMap().build()
        : b.withNewPersistentVolumeClaim().withClaimName(claim).withReadOnly(true).endPersistentVolumeClaim().build();
  }

  /** The mount in the picker's container, read-only at {@value #DIR}. */
  public VolumeMount mount() {
    VolumeMountBuilder b = new VolumeMountBuilder().withName(VOLUME).withMountPath(DIR).withReadOnly(true);
    if (!subPath.isEmpty()) {
      b.withSubPath(subPath);
    }
    return b.build();
  }
}
