package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Keeps endpoints whose pod label has one of the valid values (llm-d's {@code by-label}); the role filters
 * ({@code decode-filter}, {@code prefill-filter}, {@code encode-filter}) are fixed instances on {@code llm-d.ai/role}.
 */
public final class LabelFilter extends NamedPlugin implements Filter {
  public static final String BY_LABEL_TYPE = "by-label";
  public static final String DECODE_TYPE = "decode-filter";
  public static final String PREFILL_TYPE = "prefill-filter";
  public static final String ENCODE_TYPE = "encode-filter";
  /** llm-d's pod role label. */
  public static final String ROLE_LABEL = "llm-d.ai/role";

  /** Factory for {@code by-label}: {@code label}, {@code validValues}, {@code allowsNoLabel}. */
  public static LabelFilter byLabel(String name, PluginParameters parameters, PluginHandle handle) {
    String label = parameters.text("label", "");
    boolean allowsNoLabel = parameters.boolValue("allowsNoLabel", false);
    Set<String> values = new java.util.HashSet<>(parameters.textList("validValues"));
    if (label.isEmpty()) {
      throw new IllegalArgumentException("invalid configuration for 'by-label' filter: 'label' must be specified");
    }
    if (values.isEmpty() && !allowsNoLabel) {
      throw new IllegalArgumentException("invalid configuration for 'by-label' filter: either 'validValues' must be "
          + "non-empty or 'allowsNoLabel' must be true");
    }
    return new LabelFilter(BY_LABEL_TYPE, name, label, allowsNoLabel, values);
  }

  /** Factory for {@code decode-filter}. */
  public static LabelFilter createDecode(String name, PluginParameters parameters, PluginHandle handle) {
    return decode(name);
  }

  /** Factory for {@code prefill-filter}. */
  public static LabelFilter createPrefill(String name, PluginParameters parameters, PluginHandle handle) {
    return prefill(name);
  }

  /** Factory for {@code encode-filter}. */
  public static LabelFilter createEncode(String name, PluginParameters parameters, PluginHandle handle) {
    return encode(name);
  }

  private final String label;
  private final boolean allowsNoLabel;
  private final Set<String> validValues;

  public LabelFilter(String type, String name, String label, boolean allowsNoLabel, Set<String> validValues) {
    super(type, name);
    this.label = label;
    this.allowsNoLabel = allowsNoLabel;
    this.validValues = Set.copyOf(validValues);
  }

  /** Decode workers: roles decode, prefill-decode, both, encode-prefill-decode, or no role label. */
  public static LabelFilter decode(String name) {
    return new LabelFilter(DECODE_TYPE, name, ROLE_LABEL, true,
        Set.of("decode", "prefill-decode", "both", "encode-prefill-decode"));
  }

  /** Prefill workers: roles prefill, encode-prefill, prefill-decode, both, encode-prefill-decode. */
  public static LabelFilter prefill(String name) {
    return new LabelFilter(PREFILL_TYPE, name, ROLE_LABEL, false,
        Set.of("prefill", "encode-prefill", "prefill-decode", "both", "encode-prefill-decode"));
  }

  /** Encode workers: roles encode, encode-prefill, encode-prefill-decode. */
  public static LabelFilter encode(String name) {
    return new LabelFilter(ENCODE_TYPE, name, ROLE_LABEL, false,
        Set.of("encode", "encode-prefill", "encode-prefill-decode"));
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    List<Candidate> out = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      String value = c.endpoint().labels().get(label);
      if ((value == null && allowsNoLabel) || (value != null && validValues.contains(value))) {
        out.add(c);
      }
    }
    return out;
  }
}
