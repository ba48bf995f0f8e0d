package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.PersonaPlexConfig;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * NVIDIA PersonaPlex (a Moshi speech-to-speech server). No default image. Argv: {@code --host 0.0.0.0 --port <p>
 * --ssl /app/ssl [--quantize-4bit] [--cpu-offload]}; {@code extraArgs} are ignored, as upstream. Unlike upstream the
 * host and port are passed explicitly, so that a {@code containerPort} override is really what the server binds.
 */
public final class PersonaPlexRenderer implements UserImageRenderer {
  public static final PersonaPlexRenderer INSTANCE = new PersonaPlexRenderer();

  private PersonaPlexRenderer() {
  }

  @Override
  public String runtimeName() {
    return "personaplex";
  }

  @Override
  public String containerName() {
    return "personaplex";
  }

  @Override
  public int defaultPort() {
    return 8998;
  }

  @Override
  public List<String> runtimeCommand() {
    return List.of("/app/moshi/.venv/bin/python", "-m", "moshi.server");
  }

  @Override
  public List<String> args(RuntimeInput in) {
    List<String> args = new ArrayList<>(List.of("--host",
        in.spec().bindAddress() != null && !in.spec().bindAddress().isBlank() ? in.spec().bindAddress() : "0.0.0.0",
        "--port",
        Integer.toString(listenPort(in)), "--ssl", "/app/ssl"));
    PersonaPlexConfig config = in.spec().personaPlex();
    if (config != null && Boolean.TRUE.equals(config.quantize4Bit())) {
      args.add("--quantize-4bit");
    }
    if (config != null && Boolean.TRUE.equals(config.cpuOffload())) {
      args.add("--cpu-offload");
    }
    return List.copyOf(args);
  }

  @Override
  public List<EnvVar> runtimeEnv(RuntimeInput in) {
    PersonaPlexConfig config = in.spec().personaPlex();
    List<EnvVar> env = new ArrayList<>(
        RuntimeRenderer.secretEnv("HF_TOKEN", config == null ? null : config.hfTokenSecretRef()));
    env.add(new EnvVarBuilder().withName("NO_TORCH_COMPILE").withValue("1").build());
    return env;
  }
}
