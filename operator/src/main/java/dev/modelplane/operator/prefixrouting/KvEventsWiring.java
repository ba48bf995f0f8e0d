package dev.modelplane.operator.prefixrouting;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.common.kvevents.ZmqEndpoint;
import dev.modelplane.common.servers.VllmFlags;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Makes a vLLM-compatible server container (vLLM, or the simulator, which takes the same flags) publish the KV-cache
 * events a pool's {@code precise-prefix-cache-scorer} reads, with block hashes the router computes too:
 * {@code --kv-events-config} (ZeroMQ; the server binds its own socket when the picker discovers pods, else connects
 * to the picker's address; topic {@code kv@$(POD_IP):<pool port>@<model>}, so the router knows the endpoint),
 * {@code --prefix-caching-hash-algo sha256_cbor}, {@code --block-size} and {@code PYTHONHASHSEED} equal to the
 * scorer's, {@code POD_IP} from the downward API, and the event sockets as named container ports.
 *
 * <p>A flag or variable the user set is never replaced. One that contradicts the scorer is left as it is and
 * described in the returned problems, so the owner's status can say why the index stays empty or the hashes disagree.
 */
public final class KvEventsWiring {
  public static final String HASH_ALGO = "sha256_cbor";
  public static final String HASH_SEED_ENV = "PYTHONHASHSEED";
  public static final String POD_IP_ENV = "POD_IP";
  public static final String EVENTS_PORT = "kv-events";
  public static final String REPLAY_PORT = "kv-replay";
  /** The start of every topic the operator renders. */
  static final String TOPIC_PREFIX = "kv@";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The server's place in the pool.
   *
   * @param model the name the server serves the model under (the topic's last part)
   * @param poolPort the port the InferencePool targets on the server's pod: the router names endpoints by it
   * @param pickerHost the picker Service's DNS name, which servers connect to when the picker does not discover pods
   * @param declarePorts whether the event sockets become named container ports: not in a Knative revision, which
   *     takes one container port, and the picker reaches a pod's socket by its address without them
   */
  public record Server(String model, int poolPort, String pickerHost, boolean declarePorts) {
  }

  private KvEventsWiring() {
  }

  /**
   * Adds what is missing to {@code container}'s arguments, environment and ports.
   *
   * @return what the user set that contradicts the scorer, one sentence each naming the flag or variable; empty
   *     when everything agrees
   */
  public static List<String> apply(Container container, PrecisePrefixSettings scorer, Server server) {
    List<String> args = new ArrayList<>(container.getArgs() == null ? List.of() : container.getArgs());
    List<EnvVar> env = new ArrayList<>(container.getEnv() == null ? List.of() : container.getEnv());
    List<ContainerPort> ports = new ArrayList<>(container.getPorts() == null ? List.of() : container.getPorts());
    List<String> problems = new ArrayList<>();

    String userEvents = value(args, VllmFlags.KV_EVENTS_CONFIG);
    if (userEvents != null) {
      checkUserEvents(userEvents, scorer, problems);
    } else if (!scorer.discoverPods() && scorer.centralPort() < 0) {
      problems.add("the picker's kvEventsConfig.zmqEndpoint \"" + scorer.zmqEndpoint() + "\" is not a TCP address "
          + "it binds (such as tcp://*:5557), so servers in other pods cannot reach it; no "
          + VllmFlags.KV_EVENTS_CONFIG + " is rendered");
    } else {
      if (!TOPIC_PREFIX.startsWith(scorer.topicFilter())) {
        problems.add("the scorer's kvEventsConfig.topicFilter \"" + scorer.topicFilter() + "\" does not match the "
            + "topics " + TOPIC_PREFIX + "<pod>@<model> the servers publish, so the router drops their events");
      }
      args.addAll(List.of(VllmFlags.KV_EVENTS_CONFIG, eventsConfig(scorer, server)));
      if (env.stream().noneMatch(e -> POD_IP_ENV.equals(e.getName()))) {
        env.add(new EnvVarBuilder().withName(POD_IP_ENV).withNewValueFrom().withNewFieldRef()
            .withFieldPath("status.podIP").endFieldRef().endValueFrom().build());
      }
      if (scorer.discoverPods()) {
        port(ports, EVENTS_PORT, scorer.socketPort(), "podDiscoveryConfig.socketPort", server, problems);
        if (scorer.replayPort() > 0) {
          port(ports, REPLAY_PORT, scorer.replayPort(), "podDiscoveryConfig.replayPort", server, problems);
        }
      }
    }

    int ranks = dataParallelRanks(args);
    if (ranks > 1) {
      problems.add(ranks + " data-parallel ranks: vLLM publishes rank r's events on the events port plus r, but "
          + "the picker reads one port of each pod (or binds one port), so the events of every rank but the first "
          + "are lost; serve one rank per pod");
    }
    String algo = value(args, VllmFlags.PREFIX_CACHING_HASH_ALGO);
    if (algo == null) {
      args.addAll(List.of(VllmFlags.PREFIX_CACHING_HASH_ALGO, HASH_ALGO));
    } else if (!algo.equals(HASH_ALGO)) {
      problems.add(VllmFlags.PREFIX_CACHING_HASH_ALGO + " " + algo + " is not " + HASH_ALGO + ": the router still "
          + "indexes the events, but the servers' block hashes never equal its own, so their agreement cannot be "
          + "checked");
    }
    String blockSize = value(args, VllmFlags.BLOCK_SIZE);
    if (blockSize == null) {
      args.addAll(List.of(VllmFlags.BLOCK_SIZE, String.valueOf(scorer.blockSize())));
    } else if (!blockSize.strip().equals(String.valueOf(scorer.blockSize()))) {
      problems.add(VllmFlags.BLOCK_SIZE + " " + blockSize + " differs from the scorer's blockSize "
          + scorer.blockSize() + ": the router skips blocks of another size, so its index stays empty");
    }
    if (args.contains(VllmFlags.NO_ENABLE_PREFIX_CACHING)) {
      problems.add(VllmFlags.NO_ENABLE_PREFIX_CACHING + " turns off the prefix cache, so the servers publish no "
          + "KV-cache events");
    }

    EnvVar seed = env.stream().filter(e -> HASH_SEED_ENV.equals(e.getName())).findFirst().orElse(null);
    if (seed == null) {
      env.add(new EnvVarBuilder().withName(HASH_SEED_ENV).withValue(scorer.hashSeed()).build());
    } else if (seed.getValueFrom() == null && !Objects.requireNonNullElse(seed.getValue(), "")
        .equals(scorer.hashSeed())) {
      problems.add(HASH_SEED_ENV + "=" + Objects.requireNonNullElse(seed.getValue(), "") + " differs from the "
          + "scorer's hashSeed \"" + scorer.hashSeed() + "\": the router still indexes the events, but the servers' "
          + "block hashes never equal its own");
    }
    container.setArgs(args);
    container.setEnv(env);
    container.setPorts(ports);
    return problems;
  }

  /** The flag's JSON: the server's socket, its replay socket in discovery mode, and a topic naming the endpoint. */
  static String eventsConfig(PrecisePrefixSettings scorer, Server server) {
    ObjectNode config = JSON.createObjectNode().put("enable_kv_cache_events", true).put("publisher", "zmq");
    if (scorer.discoverPods()) {
      config.put("endpoint", "tcp://*:" + scorer.socketPort());
      if (scorer.replayPort() > 0) {
        config.put("replay_endpoint", "tcp://*:" + scorer.replayPort());
      }
    } else {
      config.put("endpoint", "tcp://" + server.pickerHost() + ":" + scorer.centralPort());
    }
    config.put("topic", TOPIC_PREFIX + "$(" + POD_IP_ENV + "):" + server.poolPort() + "@" + server.model());
    return config.toString();
  }

  /** A user's own flag must publish, and bind where the picker connects or connect where it binds. */
  private static void checkUserEvents(String json, PrecisePrefixSettings scorer, List<String> problems) {
    KvEventsConfig config;
    try {
      config = KvEventsConfig.parse(json);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return;
    }
    if (!config.publishes()) {
      problems.add(VllmFlags.KV_EVENTS_CONFIG + " does not publish (it needs \"enable_kv_cache_events\": true "
          + "and the zmq publisher), so the router receives no events");
    } else if (scorer.discoverPods() && !config.endpoint().endsWith(":" + scorer.socketPort())) {
      problems.add(VllmFlags.KV_EVENTS_CONFIG + " endpoint " + config.endpoint() + " is not the port "
          + scorer.socketPort() + " the picker reads on each pod (podDiscoveryConfig.socketPort)");
    } else if (scorer.discoverPods() != ZmqEndpoint.binds(config.endpoint())) {
      problems.add(VllmFlags.KV_EVENTS_CONFIG + " endpoint " + config.endpoint() + (scorer.discoverPods()
          ? " connects, but the picker connects to each pod too" : " binds, but the picker binds zmqEndpoint too")
          + ": nothing flows between two sockets that both connect or both bind");
    } else if (!config.topic().startsWith(scorer.topicFilter())) {
      problems.add(VllmFlags.KV_EVENTS_CONFIG + " topic \"" + config.topic() + "\" does not start with the "
          + "scorer's kvEventsConfig.topicFilter \"" + scorer.topicFilter() + "\", so the router drops its events");
    } else if (!scorer.discoverPods() && KvTopic.parse(config.topic()).model() == null) {
      problems.add(VllmFlags.KV_EVENTS_CONFIG + " topic \"" + config.topic() + "\" names no endpoint: the picker "
          + "binds one socket for every server and tells them apart by topics of the form " + TOPIC_PREFIX
          + "<pod ip>:<port>@<model>");
    }
  }

  /**
   * How many data-parallel ranks the server's group runs ({@code --data-parallel-size}, or
   * {@code --data-parallel-size-local}, the larger); 1 when neither is a number.
   */
  private static int dataParallelRanks(List<String> args) {
    return Math.max(count(value(args, VllmFlags.DATA_PARALLEL_SIZE)),
        count(value(args, VllmFlags.DATA_PARALLEL_SIZE_LOCAL)));
  }

  private static int count(String value) {
    return value != null && value.strip().matches("\\d{1,4}") ? Integer.parseInt(value.strip()) : 1;
  }

  private static void port(List<ContainerPort> ports, String name, int number, String parameter, Server server,
      List<String> problems) {
    ContainerPort taken = ports.stream().filter(p -> Objects.equals(p.getContainerPort(), number)).findFirst()
        .orElse(null);
    if (taken == null) {
      if (server.declarePorts()) {
        ports.add(new ContainerPortBuilder().withName(name).withContainerPort(number).withProtocol("TCP").build());
      }
    } else if (!name.equals(taken.getName())) {
      problems.add("the scorer's " + parameter + " " + number + " is the server's port " + taken.getName()
          + " already; the event socket cannot bind it");
    }
  }

  /**
   * The event ports a policy may guard on pods of {@code pods}: those no container declares under another name than
   * the events' own (a socket port that collides with, say, the serving port is reported, and guarding it would
   * admit only the picker to that port).
   */
  public static List<Integer> guardable(List<Integer> eventPorts, List<PodSpec> pods) {
    return eventPorts.stream().filter(number -> pods.stream().flatMap(p -> p.getContainers().stream())
        .flatMap(c -> c.getPorts() == null ? Stream.<ContainerPort>empty() : c.getPorts().stream())
        .noneMatch(p -> Objects.equals(p.getContainerPort(), number) && !EVENTS_PORT.equals(p.getName())
            && !REPLAY_PORT.equals(p.getName()))).toList();
  }

  /** The name of the port numbered {@code number} among {@code ports} ({@code port-N} when unnamed), or null. */
  public static String portName(List<ContainerPort> ports, int number) {
    return (ports == null ? List.<ContainerPort>of() : ports).stream()
        .filter(p -> Objects.equals(p.getContainerPort(), number)).findFirst()
        .map(p -> p.getName() == null ? "port-" + number : p.getName()).orElse(null);
  }

  /** The problem of a central {@code zmqEndpoint} on a port the picker's container already has. */
  public static String centralPortTaken(int port, String taken) {
    return "metadata.annotations[" + PrecisePrefixStatus.CONFIG_ANNOTATION + "]: kvEventsConfig.zmqEndpoint's port "
        + port + " is the picker's port " + taken + " already, which its Service cannot carry twice; no events "
        + "port is rendered: choose another port";
  }

  /**
   * The value of {@code flag} in {@code args} ({@code --flag value} or {@code --flag=value}), the last one when given
   * twice as argument parsers take it, or null when absent.
   */
  public static String value(List<String> args, String flag) {
    String found = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals(flag)) {
        found = i + 1 < args.size() ? args.get(i + 1) : "";
      } else if (a.startsWith(flag + "=")) {
        found = a.substring(flag.length() + 1);
      }
    }
    return found;
  }
}
