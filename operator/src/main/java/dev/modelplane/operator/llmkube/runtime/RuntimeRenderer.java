package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.InferenceRuntime;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an InferenceService into the model-server container of one runtime: image, command, argv in a fixed order,
 * environment, the port the server really listens on, and probes. Pure; the Deployment builder adds resources,
 * volumes and security settings around it.
 */
public sealed interface RuntimeRenderer
    permits LlamaServerRenderer, VllmRenderer, TgiRenderer, SglangRenderer, UserImageRenderer {

  /** The renderer of a runtime ({@code llamacpp} when unset). */
  static RuntimeRenderer of(InferenceRuntime runtime) {
    return switch (runtime == null ? InferenceRuntime.LLAMACPP : runtime) {
      case LLAMACPP -> LlamaCppRenderer.INSTANCE;
      case LLAMACPP_ROUTER -> LlamaCppRouterRenderer.INSTANCE;
      case VLLM -> VllmRenderer.INSTANCE;
      case TGI -> TgiRenderer.INSTANCE;
      case SGLANG -> SglangRenderer.INSTANCE;
      case PERSONAPLEX -> PersonaPlexRenderer.INSTANCE;
      case GENERIC -> GenericRenderer.INSTANCE;
    };
  }

  /** The runtime's name as written in {@code spec.runtime}. */
  String runtimeName();

  /** Name of the model-server container. */
  String containerName();

  /** Port the server listens on when nothing says otherwise. */
  int defaultPort();

  /** Whether the runtime reads model files the downloader init container stages (llama.cpp, vLLM). */
  boolean usesModelInit();

  /** Pods-metric name the default HPA scales on, or null when the runtime has none. */
  String defaultHpaMetric();

  /** Image: {@code spec.image}, then the operator's override, then the runtime's choice; null when none. */
  String image(RuntimeInput in);

  /** Entrypoint: {@code spec.command}, else the runtime's, else null (the image's). */
  default List<String> command(RuntimeInput in) {
    return in.spec().command() != null && !in.spec().command().isEmpty() ? in.spec().command() : runtimeCommand();
  }

  /** The runtime's own entrypoint, or null to keep the image's. */
  default List<String> runtimeCommand() {
    return null;
  }

  /** The server's arguments. */
  List<String> args(RuntimeInput in);

  /** Environment the runtime needs; {@code spec.env} is appended after it. */
  default List<EnvVar> runtimeEnv(RuntimeInput in) {
    return List.of();
  }

  /**
   * The port the server really listens on: the port flag in {@code extraArgs} when the runtime reads one (the last
   * occurrence wins on the command line), else {@link RuntimeInput#configuredPort}.
   */
  default int listenPort(RuntimeInput in) {
    return in.configuredPort(defaultPort());
  }

  /** Default probes on the listening port. */
  Probes probes(int port);

  /** Whether Kubernetes service-link environment variables are injected (off for vLLM, whose VLLM_PORT clashes). */
  default boolean serviceLinks() {
    return true;
  }

  /** The container without resources, volume mounts or security context. */
  default Container container(RuntimeInput in) {
    int port = listenPort(in);
    List<EnvVar> env = new ArrayList<>(runtimeEnv(in));
    if (in.spec().env() != null) {
      env.addAll(in.spec().env());
    }
    Probes probes = probes(port).overriddenBy(in.spec().probeOverrides());
    List<String> command = command(in);
    List<String> args = args(in);
    return new ContainerBuilder()
        .withName(containerName())
        .withImage(image(in))
        .withCommand(command == null ? List.of() : command)
        .withArgs(args)
        .withEnv(env)
        .addNewPort().withName("http").withContainerPort(port).withProtocol("TCP").endPort()
        .withStartupProbe(probes.startup())
        .withLivenessProbe(probes.liveness())
        .withReadinessProbe(probes.readiness())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
  }

  /** {@code spec.image}, then the operator's override for this runtime, then {@code fallback}. */
  static String pickImage(RuntimeInput in, String fallback) {
    if (in.spec().image() != null && !in.spec().image().isBlank()) {
      return in.spec().image();
    }
    if (in.imageOverride() != null && !in.imageOverride().isBlank()) {
      return in.imageOverride();
    }
    return fallback;
  }

  /** An environment variable read from a Secret's key; none when {@code ref} is null (nothing to read). */
  static List<EnvVar> secretEnv(String name, SecretKeySelector ref) {
    if (ref == null) {
      return List.of();
    }
    return List.of(new EnvVarBuilder().withName(name).withNewValueFrom().withSecretKeyRef(ref).endValueFrom().build());
  }

  /**
   * The port the server listens on: the value of {@code portFlag} in {@code extraArgs} when it names one, else the
   * configured port ({@code containerPort}, {@code endpoint.port}) or the runtime's default.
   */
  static int listenPortFrom(RuntimeInput in, ArgList.Flag portFlag, int defaultPort) {
    return portOr(ArgList.valueOf(in.extraArgs(), portFlag.spellings()), in.configuredPort(defaultPort));
  }

  /** A port number from an {@code extraArgs} value, or {@code fallback} when it is not one. */
  static int portOr(String value, int fallback) {
    if (value == null) {
      return fallback;
    }
    try {
      int port = Integer.parseInt(value.trim());
      return port >= 1 && port <= 65535 ? port : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
