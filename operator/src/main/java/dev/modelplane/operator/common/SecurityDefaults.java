package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The security every generated pod gets, so that it meets the Kubernetes "restricted" Pod Security Standard: the pod
 * runs as a numeric non-root user and group ({@code runAsNonRoot}, so the kubelet also refuses an image that would
 * run as root), under the runtime's default seccomp profile, with {@code fsGroup} owning its volumes (changed only
 * when the volume's root does not match yet); every container cannot escalate privileges and drops all
 * capabilities. What the user or a runtime already set is merged over these defaults by {@link SecurityContextMerge}.
 * Model-server containers also get a writable {@code HOME} (an emptyDir), as their images expect to write caches
 * under {@code /root}, which a non-root user cannot.
 *
 * @param runAsUser the pod's user unless the user or runtime sets one ({@code --default-run-as-user}); not 0
 * @param runAsGroup the pod's primary group ({@code --default-run-as-group})
 * @param fsGroup the group owning the pod's volumes ({@code --default-fsgroup})
 */
public record SecurityDefaults(long runAsUser, long runAsGroup, long fsGroup) {
  /** The default user: not root, and without meaning in common base images. */
  public static final long DEFAULT_RUN_AS_USER = 1000;
  /** The default primary group. */
  public static final long DEFAULT_RUN_AS_GROUP = 1000;
  /** Upstream LLMKube's default fsGroup. */
  public static final long DEFAULT_FS_GROUP = 102;
  /** The emptyDir volume holding the model servers' home directory. */
  public static final String HOME_VOLUME = "modelplane-home";
  /** Where the home directory is mounted, and the value of {@code HOME}. */
  public static final String HOME_PATH = "/home/modelplane";

  public SecurityDefaults {
    if (runAsUser <= 0) {
      throw new IllegalArgumentException("the default user must not be root (0) nor negative, got " + runAsUser);
    }
    if (runAsGroup < 0 || fsGroup < 0) {
      throw new IllegalArgumentException("the default groups must not be negative, got runAsGroup " + runAsGroup
          + " and fsGroup " + fsGroup);
    }
  }

  /** User 1000, group 1000, fsGroup 102. */
  public static SecurityDefaults defaults() {
    return new SecurityDefaults(DEFAULT_RUN_AS_USER, DEFAULT_RUN_AS_GROUP, DEFAULT_FS_GROUP);
  }

  /** No privilege escalation, every capability dropped, the runtime's default seccomp profile. */
  public static SecurityContext container() {
    return new SecurityContextBuilder().withAllowPrivilegeEscalation(false)
        .withNewCapabilities().withDrop("ALL").endCapabilities()
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .build();
  }

  /** The pod-level defaults. */
  public PodSecurityContext pod() {
    return new PodSecurityContextBuilder().withRunAsNonRoot(true).withRunAsUser(runAsUser).withRunAsGroup(runAsGroup)
        .withFsGroup(fsGroup).withFsGroupChangePolicy("OnRootMismatch")
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .build();
  }

  /**
   * Merges the defaults into {@code spec} in place: the pod's context, then every init, sidecar and regular
   * container's; the containers named in {@code servers} also get a writable home unless they set {@code HOME}.
   *
   * @return {@code spec}
   */
  public PodSpec harden(PodSpec spec, Set<String> servers) {
    PodSecurityContext pod = SecurityContextMerge.pod(spec.getSecurityContext(), pod());
    spec.setSecurityContext(pod);
    SecurityContext containerDefaults = new SecurityContextBuilder().withAllowPrivilegeEscalation(false)
        .withRunAsNonRoot(Boolean.TRUE.equals(pod.getRunAsNonRoot()) ? true : null)
        .withNewCapabilities().withDrop("ALL").endCapabilities().build();
    for (List<Container> containers : List.of(orEmpty(spec.getInitContainers()), orEmpty(spec.getContainers()))) {
      for (Container c : containers) {
        c.setSecurityContext(SecurityContextMerge.container(c.getSecurityContext(), containerDefaults));
      }
    }
    boolean home = false;
    for (Container c : orEmpty(spec.getContainers())) {
      if (servers.contains(c.getName()) && orEmpty(c.getEnv()).stream().noneMatch(e -> "HOME".equals(e.getName()))) {
        home = true;
        List<EnvVar> env = new ArrayList<>(orEmpty(c.getEnv()));
        env.add(new EnvVarBuilder().withName("HOME").withValue(HOME_PATH).build());
        c.setEnv(env);
        List<VolumeMount> mounts = new ArrayList<>(orEmpty(c.getVolumeMounts()));
        if (mounts.stream().noneMatch(m -> HOME_PATH.equals(m.getMountPath()))) {
          mounts.add(new VolumeMountBuilder().withName(HOME_VOLUME).withMountPath(HOME_PATH).build());
        }
        c.setVolumeMounts(mounts);
      }
    }
    if (home && orEmpty(spec.getVolumes()).stream().noneMatch(v -> HOME_VOLUME.equals(v.getName()))) {
      List<Volume> volumes = new ArrayList<>(orEmpty(spec.getVolumes()));
      volumes.add(new VolumeBuilder().withName(HOME_VOLUME).withNewEmptyDir().endEmptyDir().build());
      spec.setVolumes(volumes);
    }
    return spec;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
