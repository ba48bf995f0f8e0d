package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.servers.LlamaServerFlags;
import dev.modelplane.common.servers.SglangFlags;
import dev.modelplane.common.servers.SimulatorFlags;
import dev.modelplane.common.servers.TgiFlags;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.simulator.physics.Calibration;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelCatalog;
import dev.modelplane.simulator.physics.ModelGeometry;
import dev.modelplane.simulator.physics.StepCostModel;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps a model server's command line to simulator flags with the same meaning: served model names, batch size
 * (max sequences, running requests, parallel slots), context length, LoRA adapters, memory share and KV number
 * format, and the hardware the simulator's engine-step model prices: the model's geometry (guessed from its name),
 * the GPU its node advertises, and its tensor parallelism (or the GPUs the container asks for). Flags without a
 * simulator meaning are reported, not guessed.
 */
public final class SimulatorArgs {
  /** Context length assumed when the command line names none (the model's own would apply). */
  static final int DEFAULT_CONTEXT = 32768;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<Integer> BLOCK_SIZES = Set.of(8, 16, 32, 64, 128);
  private static final String SHA256_CBOR = "sha256_cbor";

  private SimulatorArgs() {
  }

  /** The simulator plan of {@code container}, a {@code kind} server in {@code pod} on a node of unknown GPU. */
  public static SimulatorPlan plan(Pod pod, Container container, ServerKind kind) {
    return plan(pod, container, kind, null);
  }

  /**
   * The simulator plan of {@code container}, a {@code kind} server in {@code pod} on a node whose
   * {@code nvidia.com/gpu.product} label is {@code gpuProduct} (null when unknown).
   */
  public static SimulatorPlan plan(Pod pod, Container container, ServerKind kind, String gpuProduct) {
    ContainerArgv argv = ContainerArgv.of(pod, container);
    Map<String, String> env = ContainerArgv.environment(pod, container);
    Mapping m = new Mapping(argv);
    switch (kind) {
      case VLLM -> vllm(m, container, env);
      case SGLANG -> sglang(m);
      case LLAMA_CPP -> llamaCpp(m);
      case TGI -> tgi(m, env);
      case SIMULATOR -> {
        return simulator(argv, container).withEnv(TracingEnv.of(pod, env));
      }
    }
    String[] portFlags = kind == ServerKind.TGI ? new String[] {TgiFlags.PORT, TgiFlags.P}
        : new String[] {VllmFlags.PORT};
    int port = m.integer(portFlags).or(() -> envInt(env, kind == ServerKind.TGI ? "PORT" : ""))
        .orElse(containerPort(container).orElse(kind.defaultPort()));
    int gpus = gpus(container);
    int tp = m.tensorParallel.orElse(gpus);
    // The model argument is often a mount path (/models): the served names may say what the model is.
    List<String> names = new ArrayList<>();
    names.add(m.model);
    names.addAll(m.servedNames);
    m.args.addAll(hardware(names, gpus, tp, gpuProduct));
    m.args.add(SimulatorFlags.ENABLE_KVCACHE);
    return new SimulatorPlan(kind, container.getName(), port, m.args, argv.flagsExcept(m.known),
        TracingEnv.of(pod, env));
  }

  private static void vllm(Mapping m, Container container, Map<String, String> env) {
    boolean entrypointOnly = container.getCommand() == null || container.getCommand().isEmpty();
    Optional<String> model = m.value(VllmFlags.MODEL).or(() -> m.argv.after("serve"))
        .or(() -> entrypointOnly ? m.argv.first() : Optional.empty());
    List<String> served = m.values(VllmFlags.SERVED_MODEL_NAME);
    m.served(served.isEmpty() ? model.stream().toList() : served);
    model.ifPresent(v -> m.args.addAll(List.of(VllmFlags.MODEL, v)));
    m.model = model.orElse(null);
    m.tensorParallel = m.integer(VllmFlags.TENSOR_PARALLEL_SIZE, VllmFlags.TP);
    m.copyText(VllmFlags.GPU_MEMORY_UTILIZATION, VllmFlags.GPU_MEMORY_UTILIZATION);
    m.value(VllmFlags.KV_CACHE_DTYPE).filter(v -> v.startsWith("fp8"))
        .ifPresent(v -> m.args.addAll(List.of(VllmFlags.KV_CACHE_DTYPE, "fp8")));
    m.copy(VllmFlags.MAX_NUM_SEQS, VllmFlags.MAX_NUM_SEQS);
    m.context(m.integer(VllmFlags.MAX_MODEL_LEN));
    m.copy(VllmFlags.MAX_NUM_BATCHED_TOKENS, VllmFlags.MAX_NUM_BATCHED_TOKENS);
    m.integer(VllmFlags.BLOCK_SIZE).filter(BLOCK_SIZES::contains)
        .ifPresent(v -> m.args.addAll(List.of(VllmFlags.BLOCK_SIZE, v.toString())));
    m.copy(VllmFlags.MAX_LORAS, VllmFlags.MAX_LORAS);
    m.copy(VllmFlags.MAX_CPU_LORAS, VllmFlags.MAX_CPU_LORAS);
    m.copy(VllmFlags.SEED, VllmFlags.SEED);
    m.loras(m.values(VllmFlags.LORA_MODULES));
    // KV-cache events as the server would publish them (the topic's $(POD_IP) is expanded like any argument), with
    // the block hashes a precise picker computes: sha256_cbor (the one algorithm simulated; another stays reported)
    // seeded with the container's PYTHONHASHSEED.
    m.copyText(VllmFlags.KV_EVENTS_CONFIG, VllmFlags.KV_EVENTS_CONFIG);
    m.copyText(VllmFlags.OTLP_TRACES_ENDPOINT, VllmFlags.OTLP_TRACES_ENDPOINT); // the simulator's flag too
    if (m.argv.value(VllmFlags.PREFIX_CACHING_HASH_ALGO).filter(SHA256_CBOR::equals).isPresent()) {
      m.copyText(VllmFlags.PREFIX_CACHING_HASH_ALGO, VllmFlags.PREFIX_CACHING_HASH_ALGO);
    }
    Optional.ofNullable(env.get("PYTHONHASHSEED"))
        .ifPresent(seed -> m.args.addAll(List.of(SimulatorFlags.HASH_SEED, seed)));
    m.known.addAll(List.of(VllmFlags.HOST, VllmFlags.ENABLE_LORA, VllmFlags.UVICORN_LOG_LEVEL));
  }

  private static void sglang(Mapping m) {
    Optional<String> model = m.value(SglangFlags.MODEL_PATH, SglangFlags.MODEL);
    m.served(m.value(SglangFlags.SERVED_MODEL_NAME).or(() -> model).stream().toList());
    model.ifPresent(v -> m.args.addAll(List.of(VllmFlags.MODEL, v)));
    m.model = model.orElse(null);
    m.tensorParallel = m.integer(SglangFlags.TP, SglangFlags.TP_SIZE, SglangFlags.TENSOR_PARALLEL_SIZE);
    // SGLang's share of memory for weights and the KV pool: the same budget as vLLM's utilisation.
    m.copyText(VllmFlags.GPU_MEMORY_UTILIZATION, SglangFlags.MEM_FRACTION_STATIC);
    m.copy(VllmFlags.MAX_NUM_SEQS, SglangFlags.MAX_RUNNING_REQUESTS);
    m.context(m.integer(SglangFlags.CONTEXT_LENGTH));
    m.integer(SglangFlags.PAGE_SIZE).filter(BLOCK_SIZES::contains)
        .ifPresent(v -> m.args.addAll(List.of(VllmFlags.BLOCK_SIZE, v.toString())));
    m.copy(VllmFlags.MAX_LORAS, SglangFlags.MAX_LORAS_PER_BATCH);
    m.copy(VllmFlags.SEED, SglangFlags.RANDOM_SEED);
    m.loras(m.values(SglangFlags.LORA_PATHS));
    m.known.addAll(List.of(SglangFlags.HOST, SglangFlags.ENABLE_LORA, SglangFlags.ENABLE_METRICS));
  }

  private static void llamaCpp(Mapping m) {
    Optional<String> model = m.value(LlamaServerFlags.MODEL, LlamaServerFlags.M)
        .or(() -> m.value(LlamaServerFlags.HF_REPO, LlamaServerFlags.HF, LlamaServerFlags.HFR));
    m.served(m.value(LlamaServerFlags.ALIAS, LlamaServerFlags.A).or(() -> model).stream().toList());
    model.ifPresent(v -> m.args.addAll(List.of(VllmFlags.MODEL, v)));
    m.model = model.orElse(null);
    int parallel = m.integer(LlamaServerFlags.PARALLEL, LlamaServerFlags.NP).filter(v -> v > 0).orElse(1);
    m.args.addAll(List.of(VllmFlags.MAX_NUM_SEQS, Integer.toString(parallel), SimulatorFlags.ACCEPT_ANY_MODEL));
    // llama-server divides its context between the slots: each request gets ctx-size / parallel tokens.
    m.context(m.integer(LlamaServerFlags.CTX_SIZE, LlamaServerFlags.C).filter(v -> v > 0)
        .map(v -> Math.max(1, v / parallel)));
    m.copy(VllmFlags.SEED, LlamaServerFlags.SEED, LlamaServerFlags.S);
    m.known.addAll(List.of(LlamaServerFlags.HOST, LlamaServerFlags.METRICS));
  }

  private static void tgi(Mapping m, Map<String, String> env) {
    Optional<String> model = m.value(TgiFlags.MODEL_ID).or(() -> Optional.ofNullable(env.get("MODEL_ID")));
    m.served(model.stream().toList());
    model.ifPresent(v -> m.args.addAll(List.of(VllmFlags.MODEL, v, SimulatorFlags.ACCEPT_ANY_MODEL)));
    m.model = model.orElse(null);
    m.tensorParallel = m.integer(TgiFlags.NUM_SHARD).or(() -> envInt(env, "NUM_SHARD"));
    m.copy(VllmFlags.MAX_NUM_SEQS, TgiFlags.MAX_BATCH_SIZE);
    m.context(m.integer(TgiFlags.MAX_TOTAL_TOKENS).or(() -> envInt(env, "MAX_TOTAL_TOKENS")));
    m.loras(m.value(TgiFlags.LORA_ADAPTERS).or(() -> Optional.ofNullable(env.get("LORA_ADAPTERS")))
        .map(v -> List.of(v.split(","))).orElse(List.of()));
    m.known.addAll(List.of(TgiFlags.HOSTNAME, TgiFlags.H));
  }

  private static SimulatorPlan simulator(ContainerArgv argv, Container container) {
    List<String> tokens = new ArrayList<>(argv.tokens());
    if (!tokens.isEmpty() && "simulator".equals(tokens.get(0))) {
      tokens.remove(0);
    }
    int port = containerPort(container).orElse(ServerKind.SIMULATOR.defaultPort());
    List<String> args = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      if ((VllmFlags.HOST.equals(t) || VllmFlags.PORT.equals(t)) && i + 1 < tokens.size()) {
        port = VllmFlags.PORT.equals(t) ? parseInt(tokens.get(i + 1)).orElse(port) : port;
        i++;
      } else {
        args.add(t);
      }
    }
    return new SimulatorPlan(ServerKind.SIMULATOR, container.getName(), port, args, List.of());
  }

  /**
   * The simulator's hardware flags: on a GPU node, the model's geometry (its name's, else an 8B model for one GPU and
   * a 70B one for several) on that node's GPU with tensor parallelism {@code tp} — the first that fits in memory;
   * without a known GPU, or when nothing fits, the preset for the GPU count.
   */
  static List<String> hardware(String model, int gpus, int tp, String gpuProduct) {
    return hardware(java.util.Collections.singletonList(model), gpus, tp, gpuProduct);
  }

  /** As {@link #hardware(String, int, int, String)}, the geometry from the first of {@code names} that names one. */
  static List<String> hardware(List<String> names, int gpus, int tp, String gpuProduct) {
    Gpu gpu = Gpu.byProduct(gpuProduct);
    int parallel = Math.max(1, tp);
    if (gpu != null && (gpus > 0 || tp > 1)) {
      List<ModelGeometry> candidates = new ArrayList<>();
      names.stream().map(ModelCatalog::guess).filter(java.util.Objects::nonNull).findFirst()
          .ifPresent(candidates::add);
      candidates.add(ModelCatalog.geometry(parallel <= 1 ? "llama-3.1-8b" : "llama-3.1-70b"));
      for (ModelGeometry g : candidates) {
        if (fits(g, gpu, parallel)) {
          return List.of(SimulatorFlags.MODEL_CONFIG, g.name(), SimulatorFlags.GPU, gpu.name(),
              VllmFlags.TENSOR_PARALLEL_SIZE, Integer.toString(parallel));
        }
      }
    }
    return List.of(SimulatorFlags.PRESET, preset(gpus, tp));
  }

  private static boolean fits(ModelGeometry g, Gpu gpu, int tp) {
    if (!StepCostModel.problems(g, tp).isEmpty()) {
      return false;
    }
    try {
      new StepCostModel(g, gpu, tp, null, Calibration.H100).memory(0.9, 16, gpu.defaultMaxNumBatchedTokens(),
          gpu.defaultMaxNumSeqs());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The preset for a server with {@code gpus} GPUs and tensor parallelism {@code tp} on an unknown GPU. */
  static String preset(int gpus, int tp) {
    if (gpus <= 0 && tp <= 1) {
      return "small-3b-l40s";
    }
    return tp <= 1 ? "llama-3.1-8b-h100" : tp <= 4 ? "llama-3.1-70b-h100-tp4" : "llama-3.1-70b-h100-tp8";
  }

  static int gpus(Container container) {
    if (container.getResources() == null) {
      return 0;
    }
    int most = 0;
    for (Map<String, Quantity> m : new ArrayList<>(java.util.Arrays.asList(container.getResources().getLimits(),
        container.getResources().getRequests()))) {
      if (m == null) {
        continue;
      }
      for (Map.Entry<String, Quantity> e : m.entrySet()) {
        if (e.getKey().endsWith("/gpu")) {
          most = Math.max(most, e.getValue().getNumericalAmount().intValue());
        }
      }
    }
    return most;
  }

  private static Optional<Integer> containerPort(Container container) {
    return container.getPorts() == null ? Optional.empty() : container.getPorts().stream()
        .filter(p -> p.getProtocol() == null || "TCP".equals(p.getProtocol()))
        .map(ContainerPort::getContainerPort).filter(p -> p != null && p > 0).findFirst();
  }

  private static Optional<Integer> envInt(Map<String, String> env, String name) {
    return Optional.ofNullable(env.get(name)).flatMap(SimulatorArgs::parseInt);
  }

  static Optional<Integer> parseInt(String text) {
    try {
      return Optional.of(Integer.parseInt(text.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The simulator flags built so far and the server flags they account for. */
  private static final class Mapping {
    final ContainerArgv argv;
    final List<String> args = new ArrayList<>();
    final Set<String> known = new HashSet<>();
    Optional<Integer> tensorParallel = Optional.empty();
    String model;
    final List<String> servedNames = new ArrayList<>();
    private boolean contextSet;

    Mapping(ContainerArgv argv) {
      this.argv = argv;
    }

    Optional<String> value(String... names) {
      known.addAll(List.of(names));
      return argv.value(names);
    }

    List<String> values(String... names) {
      known.addAll(List.of(names));
      return argv.values(names);
    }

    Optional<Integer> integer(String... names) {
      return value(names).flatMap(SimulatorArgs::parseInt);
    }

    void copy(String simulatorFlag, String... names) {
      integer(names).ifPresent(v -> args.addAll(List.of(simulatorFlag, v.toString())));
    }

    void copyText(String simulatorFlag, String... names) {
      value(names).ifPresent(v -> args.addAll(List.of(simulatorFlag, v)));
    }

    void served(List<String> names) {
      servedNames.addAll(names);
      if (!names.isEmpty()) {
        args.add(VllmFlags.SERVED_MODEL_NAME);
        args.addAll(names);
      }
    }

    void context(Optional<Integer> tokens) {
      if (!contextSet) {
        contextSet = true;
        args.addAll(List.of(VllmFlags.MAX_MODEL_LEN, tokens.orElse(DEFAULT_CONTEXT).toString()));
      }
    }

    /** LoRA adapters as {@code name=path}, a bare path, or JSON with name/path or lora_name/lora_path. */
    void loras(List<String> entries) {
      List<String> specs = new ArrayList<>();
      for (String entry : entries) {
        String e = entry.trim();
        if (e.isEmpty()) {
          continue;
        }
        ObjectNode node = JSON.createObjectNode();
        if (e.startsWith("{")) {
          try {
            var parsed = JSON.readTree(e);
            node.put("name", parsed.path("name").asText(parsed.path("lora_name").asText("")));
            node.put("path", parsed.path("path").asText(parsed.path("lora_path").asText("")));
          } catch (java.io.IOException ex) {
            continue;
          }
        } else {
          int eq = e.indexOf('=');
          node.put("name", eq > 0 ? e.substring(0, eq) : e).put("path", eq > 0 ? e.substring(eq + 1) : e);
        }
        if (!node.path("name").asText().isEmpty()) {
          specs.add(node.toString());
        }
      }
      if (!specs.isEmpty()) {
        args.add(VllmFlags.LORA_MODULES);
        args.addAll(specs);
      }
    }
  }
}
