package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.ProjectVersion;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Names and labels of a ModelService's objects, as OtterScale's operator gives them (they are what users, dashboards
 * and the routing sidecar look for). Objects of the endpoint picker take a DNS-1035 form of the ModelService name plus
 * {@code -epp}; the serving Deployments, the pool, the route and the monitors take the name itself. The one
 * cluster-scoped object, the picker's ClusterRoleBinding, carries a hash of namespace and name, so that no two
 * ModelServices share it.
 *
 * @param service the ModelService's name
 * @param namespace its namespace
 */
public record ModelServiceNames(String service, String namespace) {
  public static final String NAME = "app.kubernetes.io/name";
  public static final String COMPONENT = "app.kubernetes.io/component";
  public static final String PART_OF = "app.kubernetes.io/part-of";
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String VERSION = "app.kubernetes.io/version";
  public static final String PART_OF_VALUE = "otterscale-system";
  public static final String MANAGED_BY_VALUE = "model-operator";
  /** llm-d's serving-pod marker (camel case, as upstream writes it). */
  public static final String INFERENCE_SERVING = "llm-d.ai/inferenceServing";
  public static final String MODEL = "llm-d.ai/model";
  public static final String ROLE = "llm-d.ai/role";
  /** On picker pods: the picker's name. */
  public static final String INFERENCE_POOL = "inferencepool";
  public static final String DECODE_COMPONENT = "model-decode";
  public static final String PREFILL_COMPONENT = "model-prefill";
  public static final String PICKER_COMPONENT = "epp";
  public static final String DECODE = "decode";
  public static final String PREFILL = "prefill";
  /** Removes the picker's cluster-scoped RBAC before the ModelService goes. */
  public static final String FINALIZER = "model.otterscale.io/epp-cluster-rbac";
  /**
   * The ClusterRole installed with the operator (token and access reviews, {@code GET /metrics}) that the pickers of
   * the operator's own picker image are bound to; the operator may bind this role and no other.
   */
  public static final String PICKER_CLUSTER_ROLE = "modelplane-endpoint-picker";
  /** On the picker's ClusterRoleBinding: {@code namespace/name} of the ModelService it belongs to. */
  public static final String OWNER_ANNOTATION = "modelplane.dev/modelservice";
  private static final int HASH_CHARS = 10;
  private static final int MAX_NAME = 253;

  /** The serving Deployment of {@code role} (decode or prefill). */
  public String serving(String role) {
    return service + "-" + role;
  }

  /** The picker's Deployment, Service, ServiceAccount, Role, RoleBinding, DestinationRule and ServiceMonitor. */
  public String picker() {
    return dns1035(service) + "-epp";
  }

  public String pickerConfig() {
    return picker() + "-config";
  }

  /**
   * The picker's ClusterRoleBinding: namespace and picker name, then the first {@value #HASH_CHARS} hex digits of the
   * SHA-256 of {@code namespace/name} — {@code team} + {@code x-y} and {@code team-x} + {@code y} read alike but hash
   * apart. At most 253 characters.
   */
  public String pickerClusterBinding() {
    String hash = HexFormat.of().formatHex(sha256(namespace + "/" + service)).substring(0, HASH_CHARS);
    String base = namespace + "-" + picker();
    int room = MAX_NAME - HASH_CHARS - 1;
    if (base.length() > room) {
      base = base.substring(0, room).replaceAll("-+$", "");
    }
    return base + "-" + hash;
  }

  /**
   * The name earlier releases gave the picker's ClusterRole and ClusterRoleBinding ({@code <namespace>-<picker>},
   * OtterScale's), which two ModelServices could share; bindings under it are removed when they are this one's.
   */
  public String legacyPickerClusterRbac() {
    return namespace + "-" + picker();
  }

  /** {@code namespace/name}: the owner annotation of the picker's ClusterRoleBinding. */
  public String owner() {
    return namespace + "/" + service;
  }

  /** The InferencePool and the HTTPRoute. */
  public String pool() {
    return service;
  }

  /** The component label value of a role. */
  public static String component(String role) {
    return DECODE.equals(role) ? DECODE_COMPONENT : PREFILL_COMPONENT;
  }

  /** The four version-independent labels OtterScale selects by. */
  public static Map<String, String> selector(String name, String component) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(NAME, name);
    m.put(COMPONENT, component);
    m.put(PART_OF, PART_OF_VALUE);
    m.put(MANAGED_BY, MANAGED_BY_VALUE);
    return m;
  }

  /** Object metadata labels: the selector set plus the operator version. */
  public static Map<String, String> standard(String name, String component) {
    Map<String, String> m = selector(name, component);
    m.put(VERSION, ProjectVersion.version());
    return m;
  }

  /** What a serving Deployment selects: its pods' labels without the version. */
  public Map<String, String> servingSelector(String role) {
    Map<String, String> m = selector(service, component(role));
    m.put(INFERENCE_SERVING, "true");
    m.put(MODEL, service);
    m.put(ROLE, role);
    return m;
  }

  /** What the InferencePool selects: decode and prefill pods of this ModelService. */
  public Map<String, String> poolSelector() {
    Map<String, String> m = selector(service, DECODE_COMPONENT);
    m.remove(COMPONENT);
    m.put(INFERENCE_SERVING, "true");
    m.put(MODEL, service);
    return m;
  }

  public Map<String, String> pickerLabels() {
    return standard(picker(), PICKER_COMPONENT);
  }

  public Map<String, String> pickerSelector() {
    return selector(picker(), PICKER_COMPONENT);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * A DNS-1035 label from a ModelService name, OtterScale's way: lower case, {@code .} and {@code _} become
   * {@code -}, other characters are dropped, dashes collapse, a leading digit gets {@code m-}; empty becomes
   * {@code modelservice}.
   */
  static String dns1035(String name) {
    StringBuilder b = new StringBuilder();
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        b.append(c);
      } else if (c == '.' || c == '_' || c == '-') {
        b.append('-');
      }
    }
    String s = b.toString().replaceAll("-{2,}", "-").replaceAll("^-+", "").replaceAll("-+$", "");
    if (s.isEmpty()) {
      return "modelservice";
    }
    return Character.isDigit(s.charAt(0)) ? "m-" + s : s;
  }
}
