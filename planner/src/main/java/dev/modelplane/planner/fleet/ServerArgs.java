package dev.modelplane.planner.fleet;

import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.planner.workload.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulator flags every replica of a run gets: the fleet's, plus what the run itself needs and the flags do not
 * say — KV-cache events for precise routing (nothing is published: the run hands them to the router directly) and
 * the workload's LoRA adapters.
 */
final class ServerArgs {
  static final String KV_EVENTS = "{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\","
      + "\"endpoint\":\"tcp://*:5557\"}";

  private ServerArgs() {
  }

  static List<String> of(FleetConfig config, Workload workload) {
    List<String> args = new ArrayList<>(config.simulatorArgs());
    if (config.profile() == RouterProfile.PRECISE && !args.contains(VllmFlags.KV_EVENTS_CONFIG)) {
      args.addAll(List.of(VllmFlags.KV_EVENTS_CONFIG, KV_EVENTS));
    }
    if (!workload.adapters().isEmpty() && !args.contains(VllmFlags.LORA_MODULES)) {
      args.add(VllmFlags.LORA_MODULES);
      workload.adapters().stream().sorted().forEach(a -> args.add(a + "=/adapters/" + a));
      if (!args.contains(VllmFlags.MAX_LORAS)) {
        args.addAll(List.of(VllmFlags.MAX_LORAS, Integer.toString(Math.min(4, workload.adapters().size()))));
      }
    }
    return args;
  }
}
