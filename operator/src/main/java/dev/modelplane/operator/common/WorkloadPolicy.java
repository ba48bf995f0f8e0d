package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.WindowsSecurityContextOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a tenant may have the operator create in a namespace. A user who may create the operator's resources in one
 * namespace must not get, through them, what Kubernetes itself would not let them have without more rights: a pod
 * with the node's privileges or a Service reachable from outside the cluster. The policy looks at the objects the
 * operator is about to apply (after every merge and default), so no spec field and no runtime template escapes it.
 *
 * <p>In a namespace without the label {@value #LABEL}{@code =}{@value #PRIVILEGED} it refuses, in a pod:
 * {@code privileged}, {@code allowPrivilegeEscalation: true}, {@code runAsUser: 0}, {@code runAsNonRoot: false},
 * added capabilities other than {@code NET_BIND_SERVICE}, {@code hostNetwork}/{@code hostPID}/{@code hostIPC},
 * {@code hostPort}s, {@code hostPath} volumes (except the operator's own model directories, mounted read-only only),
 * {@code Unconfined} seccomp or AppArmor profiles (also by annotation), {@code procMount: Unmasked}, Windows host
 * processes, sysctls outside the Pod Security Standard's safe set, SELinux options with a {@code user}, a
 * {@code role} or a {@code type} other than the container types, and probes or lifecycle handlers that name a
 * {@code host} (the kubelet would connect there from the node); in a Service: any type but {@code ClusterIP},
 * {@code externalIPs}, {@code loadBalancerIP} and {@code loadBalancerSourceRanges}. Only cluster administrators can
 * label a namespace, so the label is their decision, not the tenant's.
 */
public final class WorkloadPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadPolicy.class);
  /** The namespace label that lifts the policy. */
  public static final String LABEL = "modelplane.dev/workload-policy";
  /** The label's value that allows everything. */
  public static final String PRIVILEGED = "privileged";
  /** The condition and Event reason of a refusal. */
  public static final String REASON = "PolicyRefused";
  /** The sysctls the "baseline" Pod Security Standard allows: namespaced and without effect outside the pod. */
  static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
      "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
      "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
      "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
  private static final String APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";
  /** The deprecated seccomp annotations, pod-wide and per container. */
  private static final List<String> SECCOMP_ANNOTATIONS = List.of("seccomp.security.alpha.kubernetes.io/pod",
      "container.seccomp.security.alpha.kubernetes.io/");
  /** The SELinux types the "baseline" Pod Security Standard allows. */
  static final Set<String> SELINUX_TYPES = Set.of("container_t", "container_init_t", "container_kvm_t",
      "container_engine_t");
  private static final String HINT = " (label the namespace " + LABEL + "=" + PRIVILEGED + " to allow it)";

  private WorkloadPolicy() {
  }

  /**
   * A field the policy refuses.
   *
   * @param field where it is, in the user's resource where the operator can tell, e.g.
   *     {@code spec.securityContext.privileged}
   * @param message why it is refused
   */
  public record Violation(String field, String message) {
    /** {@code field: message}, as conditions and Events show it. */
    public String describe() {
      return field + ": " + message;
    }
  }

  /**
   * A hostPath volume the operator derived itself (a model directory the model agent or a Model's staging put on the
   * node), not taken from the user's spec. It is allowed when the volume of that name has exactly this path and
   * every container mounts it read-only.
   *
   * @param volume the volume's name
   * @param path the node directory
   */
  public record OperatorHostPath(String volume, String path) {
  }

  /** Whether the namespace's labels lift the policy. */
  public static boolean lifted(Map<String, String> namespaceLabels) {
    return namespaceLabels != null && PRIVILEGED.equals(namespaceLabels.get(LABEL));
  }

  /**
   * Whether the namespace's labels lift the policy, read from the API server (one GET per reconcile: the operator
   * keeps no Namespace informer). A namespace that cannot be read (missing, or the operator may not get Namespaces)
   * counts as unlabelled: the policy then applies.
   */
  public static boolean lifted(KubernetesClient client, String namespace) {
    try {
      var ns = client.namespaces().withName(namespace).get();
      return ns != null && lifted(ns.getMetadata().getLabels());
    } catch (KubernetesClientException e) {
      LOG.atWarn().addKeyValue("namespace", namespace).addKeyValue("error", e.getMessage())
          .log("namespace labels unreadable; the workload policy applies");
      return false;
    }
  }

  /** All violations described on one line, for a condition message. */
  public static String describe(List<Violation> violations) {
    return String.join("; ", violations.stream().map(Violation::describe).toList());
  }

  /**
   * The violations of a pod template.
   *
   * @param template the pod template the operator would apply
   * @param where maps a path in the template ({@code spec.containers[server].securityContext.privileged},
   *     {@code metadata.annotations[k]}) to the field of the user's resource it came from
   * @param operatorHostPaths the hostPath volumes the operator added itself
   */
  public static List<Violation> pod(PodTemplateSpec template, UnaryOperator<String> where,
      Set<OperatorHostPath> operatorHostPaths) {
    List<Violation> out = new ArrayList<>();
    if (template == null) {
      return out;
    }
    Map<String, String> annotations = template.getMetadata() == null ? null
        : template.getMetadata().getAnnotations();
    if (annotations != null) {
      annotations.forEach((k, v) -> {
        if (k.startsWith(APPARMOR_ANNOTATION) && "unconfined".equalsIgnoreCase(v)) {
          out.add(new Violation(where.apply("metadata.annotations[" + k + "]"), "an unconfined AppArmor profile "
              + "is refused" + HINT));
        }
        if (SECCOMP_ANNOTATIONS.stream().anyMatch(k::startsWith) && "unconfined".equalsIgnoreCase(v)) {
          out.add(new Violation(where.apply("metadata.annotations[" + k + "]"), "an unconfined seccomp profile "
              + "is refused" + HINT));
        }
      });
    }
    PodSpec spec = template.getSpec();
    if (spec == null) {
      return out;
    }
    flag(out, where, "spec.hostNetwork", spec.getHostNetwork(), "the node's network namespace is refused");
    flag(out, where, "spec.hostPID", spec.getHostPID(), "the node's process namespace is refused");
    flag(out, where, "spec.hostIPC", spec.getHostIPC(), "the node's IPC namespace is refused");
    podContext(out, where, spec.getSecurityContext());
    List<Volume> volumes = spec.getVolumes() == null ? List.of() : spec.getVolumes();
    for (Volume v : volumes) {
      if (v.getHostPath() == null) {
        continue;
      }
      String field = "spec.volumes[" + v.getName() + "].hostPath";
      if (!operatorHostPaths.contains(new OperatorHostPath(v.getName(), v.getHostPath().getPath()))) {
        out.add(new Violation(where.apply(field), "a hostPath volume (" + v.getHostPath().getPath()
            + ") is refused" + HINT));
      }
    }
    Set<String> operatorVolumes = new java.util.HashSet<>();
    volumes.stream().filter(v -> v.getHostPath() != null && operatorHostPaths.contains(
        new OperatorHostPath(v.getName(), v.getHostPath().getPath()))).forEach(v -> operatorVolumes.add(v.getName()));
    for (String kind : List.of("initContainers", "containers")) {
      List<Container> containers = kind.equals("containers") ? spec.getContainers() : spec.getInitContainers();
      for (Container c : containers == null ? List.<Container>of() : containers) {
        String prefix = "spec." + kind + "[" + c.getName() + "]";
        container(out, where, prefix, c.getSecurityContext(), c.getPorts(), c.getVolumeMounts(), operatorVolumes);
        handlers(out, where, prefix, c.getLivenessProbe(), c.getReadinessProbe(), c.getStartupProbe(),
            c.getLifecycle());
      }
    }
    for (EphemeralContainer c : spec.getEphemeralContainers() == null ? List.<EphemeralContainer>of()
        : spec.getEphemeralContainers()) {
      String prefix = "spec.ephemeralContainers[" + c.getName() + "]";
      container(out, where, prefix, c.getSecurityContext(), c.getPorts(), c.getVolumeMounts(), operatorVolumes);
      handlers(out, where, prefix, c.getLivenessProbe(), c.getReadinessProbe(), c.getStartupProbe(),
          c.getLifecycle());
    }
    return out;
  }

  /**
   * The violations of a Service.
   *
   * @param service the Service the operator would apply
   * @param where maps a path in the Service ({@code spec.type}, {@code spec.loadBalancerIP}) to the field of the
   *     user's resource it came from
   */
  public static List<Violation> service(Service service, UnaryOperator<String> where) {
    List<Violation> out = new ArrayList<>();
    ServiceSpec spec = service == null ? null : service.getSpec();
    if (spec == null) {
      return out;
    }
    if (spec.getType() != null && !"ClusterIP".equals(spec.getType())) {
      out.add(new Violation(where.apply("spec.type"), "a Service of type " + spec.getType()
          + " (reachable from outside the cluster) is refused; only ClusterIP is allowed" + HINT));
    }
    if (spec.getExternalIPs() != null && !spec.getExternalIPs().isEmpty()) {
      out.add(new Violation(where.apply("spec.externalIPs"), "external IPs are refused" + HINT));
    }
    if (spec.getLoadBalancerIP() != null && !spec.getLoadBalancerIP().isBlank()) {
      out.add(new Violation(where.apply("spec.loadBalancerIP"), "a chosen load-balancer IP is refused" + HINT));
    }
    if (spec.getLoadBalancerSourceRanges() != null && !spec.getLoadBalancerSourceRanges().isEmpty()) {
      out.add(new Violation(where.apply("spec.loadBalancerSourceRanges"), "load-balancer source ranges are refused"
          + HINT));
    }
    return out;
  }

  private static void podContext(List<Violation> out, UnaryOperator<String> where, PodSecurityContext sc) {
    if (sc == null) {
      return;
    }
    String p = "spec.securityContext";
    if (sc.getRunAsUser() != null && sc.getRunAsUser() == 0) {
      out.add(new Violation(where.apply(p + ".runAsUser"), "running as root (user 0) is refused" + HINT));
    }
    if (Boolean.FALSE.equals(sc.getRunAsNonRoot())) {
      out.add(new Violation(where.apply(p + ".runAsNonRoot"), "runAsNonRoot: false is refused" + HINT));
    }
    profiles(out, where, p, sc.getSeccompProfile(), sc.getAppArmorProfile());
    seLinux(out, where, p, sc.getSeLinuxOptions());
    hostProcess(out, where, p, sc.getWindowsOptions());
    for (Sysctl s : sc.getSysctls() == null ? List.<Sysctl>of() : sc.getSysctls()) {
      if (!SAFE_SYSCTLS.contains(s.getName())) {
        out.add(new Violation(where.apply(p + ".sysctls[" + s.getName() + "]"), "the sysctl " + s.getName()
            + " is not in the safe set and is refused" + HINT));
      }
    }
  }

  private static void container(List<Violation> out, UnaryOperator<String> where, String prefix,
      SecurityContext sc, List<ContainerPort> ports, List<VolumeMount> mounts, Set<String> operatorVolumes) {
    for (ContainerPort port : ports == null ? List.<ContainerPort>of() : ports) {
      if (port.getHostPort() != null && port.getHostPort() != 0) {
        out.add(new Violation(where.apply(prefix + ".ports[" + port.getContainerPort() + "].hostPort"),
            "a host port (" + port.getHostPort() + ") is refused" + HINT));
      }
    }
    for (VolumeMount m : mounts == null ? List.<VolumeMount>of() : mounts) {
      if (operatorVolumes.contains(m.getName()) && !Boolean.TRUE.equals(m.getReadOnly())) {
        out.add(new Violation(where.apply(prefix + ".volumeMounts[" + m.getMountPath() + "]"), "the operator's "
            + "model directory on the node (volume " + m.getName() + ") may only be mounted read-only" + HINT));
      }
    }
    if (sc == null) {
      return;
    }
    String p = prefix + ".securityContext";
    flag(out, where, p + ".privileged", sc.getPrivileged(), "a privileged container is refused");
    flag(out, where, p + ".allowPrivilegeEscalation", sc.getAllowPrivilegeEscalation(),
        "allowPrivilegeEscalation: true is refused");
    if (sc.getRunAsUser() != null && sc.getRunAsUser() == 0) {
      out.add(new Violation(where.apply(p + ".runAsUser"), "running as root (user 0) is refused" + HINT));
    }
    if (Boolean.FALSE.equals(sc.getRunAsNonRoot())) {
      out.add(new Violation(where.apply(p + ".runAsNonRoot"), "runAsNonRoot: false is refused" + HINT));
    }
    Capabilities caps = sc.getCapabilities();
    for (String add : caps == null || caps.getAdd() == null ? List.<String>of() : caps.getAdd()) {
      String name = add == null ? "" : add.toUpperCase(Locale.ROOT);
      if (!name.equals("NET_BIND_SERVICE") && !name.equals("CAP_NET_BIND_SERVICE")) {
        out.add(new Violation(where.apply(p + ".capabilities.add[" + add + "]"), "adding the capability " + add
            + " is refused; only NET_BIND_SERVICE may be added" + HINT));
      }
    }
    profiles(out, where, p, sc.getSeccompProfile(), sc.getAppArmorProfile());
    seLinux(out, where, p, sc.getSeLinuxOptions());
    if (sc.getProcMount() != null && !"Default".equals(sc.getProcMount())) {
      out.add(new Violation(where.apply(p + ".procMount"), "procMount " + sc.getProcMount() + " is refused" + HINT));
    }
    hostProcess(out, where, p, sc.getWindowsOptions());
  }

  /** Seccomp and AppArmor profiles, set on the pod or on a container: Unconfined is refused. */
  private static void profiles(List<Violation> out, UnaryOperator<String> where, String p,
      SeccompProfile seccomp, AppArmorProfile appArmor) {
    if (seccomp != null && "Unconfined".equalsIgnoreCase(seccomp.getType())) {
      out.add(new Violation(where.apply(p + ".seccompProfile.type"), "an unconfined seccomp profile is refused"
          + HINT));
    }
    if (appArmor != null && "Unconfined".equalsIgnoreCase(appArmor.getType())) {
      out.add(new Violation(where.apply(p + ".appArmorProfile.type"), "an unconfined AppArmor profile is refused"
          + HINT));
    }
  }

  /**
   * SELinux options as the "baseline" Pod Security Standard allows them: no {@code user} or {@code role}, and a
   * {@code type} only among the container types.
   */
  private static void seLinux(List<Violation> out, UnaryOperator<String> where, String p, SELinuxOptions options) {
    if (options == null) {
      return;
    }
    if (options.getUser() != null && !options.getUser().isEmpty()) {
      out.add(new Violation(where.apply(p + ".seLinuxOptions.user"), "a chosen SELinux user is refused" + HINT));
    }
    if (options.getRole() != null && !options.getRole().isEmpty()) {
      out.add(new Violation(where.apply(p + ".seLinuxOptions.role"), "a chosen SELinux role is refused" + HINT));
    }
    if (options.getType() != null && !options.getType().isEmpty() && !SELINUX_TYPES.contains(options.getType())) {
      out.add(new Violation(where.apply(p + ".seLinuxOptions.type"), "the SELinux type " + options.getType()
          + " is refused; only " + String.join(", ", SELINUX_TYPES.stream().sorted().toList()) + " are allowed"
          + HINT));
    }
  }

  /**
   * Probes and lifecycle handlers that name a host: the kubelet, not the pod, makes these requests, from the node's
   * network, so a chosen host would let the tenant reach what only the node can.
   */
  private static void handlers(List<Violation> out, UnaryOperator<String> where, String prefix, Probe liveness,
      Probe readiness, Probe startup, Lifecycle lifecycle) {
    probe(out, where, prefix + ".livenessProbe", liveness);
    probe(out, where, prefix + ".readinessProbe", readiness);
    probe(out, where, prefix + ".startupProbe", startup);
    if (lifecycle != null) {
      handler(out, where, prefix + ".lifecycle.postStart", lifecycle.getPostStart());
      handler(out, where, prefix + ".lifecycle.preStop", lifecycle.getPreStop());
    }
  }

  private static void probe(List<Violation> out, UnaryOperator<String> where, String p, Probe probe) {
    if (probe != null) {
      host(out, where, p + ".httpGet.host", probe.getHttpGet() == null ? null : probe.getHttpGet().getHost());
      host(out, where, p + ".tcpSocket.host", probe.getTcpSocket() == null ? null : probe.getTcpSocket().getHost());
    }
  }

  private static void handler(List<Violation> out, UnaryOperator<String> where, String p, LifecycleHandler h) {
    if (h != null) {
      host(out, where, p + ".httpGet.host", h.getHttpGet() == null ? null : h.getHttpGet().getHost());
      host(out, where, p + ".tcpSocket.host", h.getTcpSocket() == null ? null : h.getTcpSocket().getHost());
    }
  }

  private static void host(List<Violation> out, UnaryOperator<String> where, String field, String host) {
    if (host != null && !host.isEmpty()) {
      out.add(new Violation(where.apply(field), "a probe or lifecycle handler host (" + host + ") is refused: the "
          + "kubelet would connect to it from the node; leave it empty to use the pod's IP" + HINT));
    }
  }

  private static void hostProcess(List<Violation> out, UnaryOperator<String> where, String prefix,
      WindowsSecurityContextOptions options) {
    if (options != null) {
      flag(out, where, prefix + ".windowsOptions.hostProcess", options.getHostProcess(),
          "a Windows host process is refused");
    }
  }

  private static void flag(List<Violation> out, UnaryOperator<String> where, String field, Boolean value,
      String message) {
    if (Objects.equals(value, Boolean.TRUE)) {
      out.add(new Violation(where.apply(field), message + HINT));
    }
  }
}
