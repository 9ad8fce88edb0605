#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of τ-bench results: per model one results file for
each environment, holding every trial of its tasks, as τ-bench's `historical_trajectories/`
(testdata/taubench).

Layout: OUT_DIR/<model>-airline.json and OUT_DIR/<model>-retail.json (with --models 2 or more,
the other models' files beside them: the name carries the model).

Each file is what τ-bench's `run()` dumps (`[r.model_dump() for r in results]`, indented by 2)
after `--num-trials N`, renamed to `<model>-<env>.json` as the historical trajectories are
(docs/formats/taubench.md, `results-list-historical`): a list of EnvRunResult entries
{task_id, reward, info, traj, trial}, trial by trial, each trial's tasks in order. `info` is the
env's EnvInfo: `task` (user_id, actions, instruction, outputs), `source`, `user_cost` and
`reward_info` (reward, `{r_actions, gt_data_hash}` or, for a task with outputs,
`{r_outputs, outputs}`, and the actions taken). `traj` is the conversation: the environment's
policy as the system message (5 to 7 KB), the simulated user's turns, the agent's replies and
tool calls, and the tools' JSON answers, about 28 messages and 20 KB an entry, as in the
historical files. Task ids restart at 0 in each environment; by default 50 airline and 115
retail tasks, the sizes of τ-bench's test sets.

A trial passes with reward 1.0 and fails with 0.0. A failed trial is most often a wrong end
state (`r_actions` 0.0) or a missing output (`r_outputs` 0.0); now and then the conversation hit
the step limit (`reward_info` null) or the agent raised (`info` {error, traceback}, `traj`
empty), which τ-bench also writes as reward 0.0.

Every trial is a run, named as evaltally names it, `<model>-<env>#trial-<n>`: a model has
2 × --runs runs, those of each environment in its category (`airline`, `retail`). Each
(model, environment, trial) draws its outcomes from its own stream.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_taubench.py --runs 8 --tasks 165 --seed 7 OUT_DIR [--expected > truth.json]
"""
import json
import os
import sys

import gencommon

ENVS = [("airline", 50), ("retail", 115)]
MODELS = ["gpt-4o", "sonnet-35-new", "gpt-4o-mini"]
FIRST = ("Mia Sophia Noah Liam Olivia Emma Ava Ethan Lucas Amelia Yusuf Aarav Chen Fatima Omar Ivan Sofia "
         "Mei Raj Lei Anya Mohamed Isabella James Harper Evelyn Daniel Juan Yara").split()
LAST = ("Li Silva Garcia Kim Nguyen Smith Patel Rossi Muller Ahmed Lopez Wilson Santos Brown Kovacs Ito "
        "Johansson Hernandez Davis Moore Khan Sanchez Taylor Anderson Thomas Jackson").split()
AIRPORTS = "JFK SEA LAX SFO ORD ATL DFW DEN MIA BOS EWR PHX MSP DTW CLT LGA IAH PHL LAS MCO".split()
CITIES = "Austin Denver Seattle Boston Phoenix Chicago Houston Columbus Charlotte Portland".split()
PRODUCTS = [("T-Shirt", ["color", "size", "material", "style"]),
            ("Water Bottle", ["capacity", "material", "color"]),
            ("Desk Lamp", ["color", "brightness", "power source"]),
            ("Hiking Boots", ["size", "material", "waterproof"]),
            ("Mechanical Keyboard", ["switch type", "backlight", "size"]),
            ("Office Chair", ["material", "color", "armrest"]),
            ("Wireless Earbuds", ["color", "battery life", "water resistance"]),
            ("Laptop", ["screen size", "processor", "ram"])]
VALUES = ("blue red black white green small medium large XL cotton polyester leather 500ml 1000ml stainless "
          "LED USB").split()
WORDS = ("reservation flight booking cabin economy business baggage insurance certificate payment refund cancel "
         "change passenger date origin destination order item exchange return address product variant gift card "
         "credit card paypal pending delivered shipped confirm policy membership gold silver regular compensation "
         "delay segment itinerary price total balance account profile email zip").split()
PHRASES = {
    "airline": ["I need to change my flight", "I want to cancel my reservation", "I'd like to book a one-way flight",
                "my flight was delayed and I want compensation", "I need to add a checked bag",
                "I want to upgrade my cabin to business"],
    "retail": ["I want to return some items", "I'd like to exchange a t-shirt for a different size",
               "I need to change the address on my pending order", "I want to cancel my order",
               "can you check the status of my order", "I'd like to switch the payment method on my order"],
}
TOOLS = {
    "airline": (["get_user_details", "get_reservation_details", "search_direct_flight", "search_onestop_flight",
                 "list_all_airports", "calculate", "think"],
                ["book_reservation", "cancel_reservation", "update_reservation_flights", "update_reservation_baggages",
                 "update_reservation_passengers", "send_certificate"]),
    "retail": (["find_user_id_by_email", "find_user_id_by_name_zip", "get_user_details", "get_order_details",
                "get_product_details", "list_all_product_types", "calculate", "think"],
               ["cancel_pending_order", "exchange_delivered_order_items", "return_delivered_order_items",
                "modify_pending_order_items", "modify_pending_order_address", "modify_pending_order_payment",
                "modify_user_address"]),
}
ERRORS = ["litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached for requests",
          "litellm.InternalServerError: OpenAIException - The server had an error while processing your request.",
          "litellm.ContextWindowExceededError: This model's maximum context length is 128000 tokens.",
          "litellm.Timeout: Request timed out."]
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def words(rng, k):
    return " ".join(rng.choices(WORDS, k=k))


def sentences(rng, n, lo=8, hi=22):
    return " ".join(words(rng, rng.randrange(lo, hi)).capitalize() + "." for _ in range(n))


def policy(rng, env):
    """The environment's policy, the system message of every trajectory (5 to 7 KB)."""
    title = "Airline Agent Policy" if env == "airline" else "Retail agent policy"
    parts = [f"# {title}\n\nThe current time is 2024-05-15 15:00:00 EST.\n\n{sentences(rng, 4)}"]
    for section in ["Domain Basic", "Book flight" if env == "airline" else "Cancel pending order",
                    "Modify flight" if env == "airline" else "Modify pending order",
                    "Cancel flight" if env == "airline" else "Return delivered order",
                    "Refund" if env == "airline" else "Exchange delivered order"]:
        parts.append(f"## {section}\n\n" + "\n\n".join(f"- {sentences(rng, rng.randrange(1, 4))}" for _ in range(5)))
    return "\n\n".join(parts)


def person(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return first, last, f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 10000)}"


def flight_number(rng):
    return f"HAT{rng.randrange(1, 300):03d}"


def card(rng):
    return f"credit_card_{rng.randrange(10**6, 10**7)}"


def action(rng, env, user_id):
    name = rng.choice(TOOLS[env][1])
    if env == "airline":
        kwargs = {"reservation_id": "".join(rng.choices(ALNUM[:26] + ALNUM[52:], k=6))}
        if name == "book_reservation":
            o, d = rng.sample(AIRPORTS, 2)
            kwargs = {"user_id": user_id, "origin": o, "destination": d, "flight_type": "one_way",
                      "cabin": rng.choice(["basic_economy", "economy", "business"]),
                      "flights": [{"flight_number": flight_number(rng), "date": f"2024-05-{rng.randrange(16, 30)}"}],
                      "payment_methods": [{"payment_id": card(rng), "amount": rng.randrange(80, 900)}],
                      "total_baggages": rng.randrange(0, 4), "nonfree_baggages": 0,
                      "insurance": rng.choice(["yes", "no"])}
    else:
        kwargs = {"order_id": f"#W{rng.randrange(10**6, 10**7)}", "item_ids": [str(rng.randrange(10**9, 10**10))],
                  "payment_method_id": f"gift_card_{rng.randrange(10**6, 10**7)}"}
    return {"name": name, "kwargs": kwargs}


def plan(seed, n_tasks):
    """{env: (policy, [(task_id, task, gt_data_hash, pass probability)])}."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_tasks))
    out = {}
    for env, count in gencommon.shares(ENVS, n_tasks):
        tasks = []
        for task_id in range(count):
            first, last, user_id = person(rng)
            actions = [action(rng, env, user_id) for _ in range(rng.randrange(1, 4))]
            outputs = [str(rng.randrange(10, 3000))] if rng.random() < 0.08 else []
            instruction = (f"You are {first} {last} ({user_id}). {rng.choice(PHRASES[env]).capitalize()}. "
                           + sentences(rng, rng.randrange(3, 7)))
            task = {"user_id": user_id, "actions": actions, "instruction": instruction, "outputs": outputs}
            tasks.append((task_id, task, f"{rng.getrandbits(256):064x}", next(probabilities)))
        out[env] = (policy(rng, env), tasks)
    return out


def tool_answer(rng, env, name, user_id):
    """A tool's JSON answer, as the environment returns it (a string)."""
    if name in ("calculate", "think"):
        return str(round(rng.uniform(10, 2000), 2)) if name == "calculate" else ""
    if name.startswith("find_user_id"):
        return user_id
    if name == "get_user_details":
        name = {"first_name": rng.choice(FIRST), "last_name": rng.choice(LAST)}
        address = {"address1": f"{rng.randrange(1, 999)} {rng.choice(LAST)} Street",
                   "address2": f"Suite {rng.randrange(100, 999)}", "city": rng.choice(CITIES), "country": "USA",
                   "state": "TX", "zip": f"{rng.randrange(10000, 99999)}"}
        cards = {card(rng): {"source": "credit_card", "brand": "visa", "last_four": f"{rng.randrange(1000, 9999)}"}
                 for _ in range(rng.randrange(1, 4))}
        doc = {"name": name, "address": address, "email": f"{user_id}@example.com", "payment_methods": cards}
        key = "reservations" if env == "airline" else "orders"
        doc[key] = ["".join(rng.choices(ALNUM[:26], k=6)) for _ in range(rng.randrange(1, 6))]
        return json.dumps(doc)
    if env == "airline":
        flights = [{"flight_number": flight_number(rng), "origin": rng.choice(AIRPORTS),
                    "destination": rng.choice(AIRPORTS),
                    "scheduled_departure_time_est": f"{rng.randrange(0, 24):02d}:00:00",
                    "scheduled_arrival_time_est": f"{rng.randrange(0, 24):02d}:30:00", "status": "available",
                    "available_seats": {"basic_economy": rng.randrange(20), "economy": rng.randrange(20),
                                        "business": rng.randrange(20)},
                    "prices": {"basic_economy": rng.randrange(50, 100), "economy": rng.randrange(100, 200),
                               "business": rng.randrange(200, 500)}}
                   for _ in range(rng.randrange(1, 6))]
        if name.startswith("search"):
            return json.dumps(flights)
        return json.dumps({"reservation_id": "".join(rng.choices(ALNUM[:26], k=6)), "user_id": user_id,
                           "flights": flights, "insurance": "no"})
    product, options = rng.choice(PRODUCTS)
    items = [{"name": product, "product_id": str(rng.randrange(10**9, 10**10)),
              "item_id": str(rng.randrange(10**9, 10**10)), "price": round(rng.uniform(10, 900), 2),
              "options": {o: rng.choice(VALUES) for o in options}}
             for _ in range(rng.randrange(1, 5))]
    order_id = f"#W{rng.randrange(10**6, 10**7)}"
    status = rng.choice(["pending", "delivered", "processed"])
    payment = {"transaction_type": "payment", "amount": round(sum(i["price"] for i in items), 2),
               "payment_method_id": card(rng)}
    return json.dumps({"order_id": order_id, "user_id": user_id, "items": items, "status": status,
                       "payment_history": [payment]})


def trajectory(rng, env, system, task, steps):
    user_id = task["user_id"]
    traj = [{"role": "system", "content": system},
            {"role": "user", "content": f"Hi! {rng.choice(PHRASES[env]).capitalize()}."},
            {"content": "I can help with that. Could you please provide your user ID?", "role": "assistant"},
            {"role": "user", "content": f"Sure, my user ID is {user_id}."}]
    calls = TOOLS[env][0] + [a["name"] for a in task["actions"]]
    for _ in range(steps):
        if rng.random() < 0.6:
            name = rng.choice(calls)
            call_id = "call_" + "".join(rng.choices(ALNUM, k=24))
            by_user = name in ("get_user_details", "book_reservation")
            args = {"user_id": user_id} if by_user else {"id": str(rng.randrange(10**6))}
            args = json.dumps(args, separators=(",", ":"))
            call = {"function": {"arguments": args, "name": name}, "id": call_id, "type": "function"}
            traj.append({"content": None, "role": "assistant", "tool_calls": [call]})
            traj.append({"role": "tool", "tool_call_id": call_id, "name": name,
                         "content": tool_answer(rng, env, name, user_id)})
        else:
            traj.append({"content": sentences(rng, rng.randrange(2, 7)), "role": "assistant"})
            traj.append({"role": "user", "content": sentences(rng, rng.randrange(1, 3), 4, 14)})
    traj.append({"content": sentences(rng, rng.randrange(2, 6)), "role": "assistant"})
    traj.append({"role": "user", "content": "Thank you so much for your help! ###STOP###"})
    return traj


def entry(env, system, task_id, task, gt_hash, trial, passed, rng):
    reward = 1.0 if passed else 0.0
    if not passed and rng.random() < 0.03:
        error = rng.choice(ERRORS)
        trace = f"Traceback (most recent call last):\n  File \"/app/tau_bench/run.py\", line 77, in _run\n" \
                f"    res = agent.solve(\n{error}\n"
        return {"task_id": task_id, "reward": 0.0, "info": {"error": error, "traceback": trace},
                "traj": [], "trial": trial}
    steps = rng.randrange(2, 20)
    info = {"task": task, "source": "user", "user_cost": rng.uniform(0.001, 0.006)}
    if not passed and rng.random() < 0.05:
        steps = 30
        info["reward_info"] = None
    else:
        if task["outputs"]:
            detail = {"r_outputs": reward, "outputs": {o: passed for o in task["outputs"]}}
        else:
            detail = {"r_actions": reward, "gt_data_hash": gt_hash if passed else f"{rng.getrandbits(256):064x}"}
        info["reward_info"] = {"reward": reward, "info": detail, "actions": task["actions"]}
    return {"task_id": task_id, "reward": reward, "info": info,
            "traj": trajectory(rng, env, system, task, steps), "trial": trial}


def main():
    ap = gencommon.parser(__doc__, 8)
    ap.add_argument("--tasks", type=int, default=165,
                    help="tasks per trial, 50 airline to 115 retail (default 165)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    envs = plan(a.seed, a.tasks)
    models = gencommon.model_names(MODELS, a.models, "model-")
    truth = gencommon.Truth("taubench", a.seed)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    for model in models:
        if a.out and a.models > 1:
            print(f"{model}:", file=sys.stderr)
        for ei, (env, (system, tasks)) in enumerate(envs.items()):
            out = open(os.path.join(a.out, f"{model}-{env}.json"), "w") if a.out else None
            first = True
            for ri in range(a.runs):
                run = f"{model}-{env}#trial-{ri}"
                truth.run(model, run)
                orng = gencommon.stream(a.seed, "outcome", model, env, ri)
                outcomes = [orng.random() < p for _, _, _, p in tasks]
                for (task_id, _, _, _), passed in zip(tasks, outcomes):
                    truth.record(model, run, env, str(task_id), passed)
                if out:
                    crng = gencommon.stream(a.seed, "content", model, env, ri)
                    for (task_id, task, gt_hash, _), passed in zip(tasks, outcomes):
                        # One element of json.dump(results, f, indent=2), as τ-bench writes it.
                        text = json.dumps([entry(env, system, task_id, task, gt_hash, ri, passed, crng)], indent=2)
                        out.write(("[\n" if first else ",\n") + text[2:-2])
                        first = False
                    gencommon.progress(ei * a.runs + ri + 1, len(envs) * a.runs, 10)
            if out:
                out.write("\n]\n")
                out.close()
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
