use super::*;

fn ms(ms_per_iteration: f64) -> Timing {
    Timing::Measured { ms_per_iteration }
}

fn unavailable(reason: &str) -> Timing {
    Timing::Unavailable {
        reason: reason.into(),
    }
}

fn timed_out() -> Timing {
    Timing::Untimed {
        why: "timed out after 20 s".into(),
    }
}

#[test]
fn the_faster_for_the_study_is_always_picked() {
    // CPU 30 ms on up to 4 workers, WebGPU from 1 ms to 200 ms, 1 to 18 trainings.
    for trainings in [1, 2, 3, 5, 6, 18] {
        for gpu in [1.0, 5.0, 10.0, 29.0, 30.0, 31.0, 60.0, 119.0, 121.0, 200.0] {
            let choice = choose(&ms(30.0), &ms(gpu), 4, trainings, Preference::Auto);
            let cpu_total = study_ms(30.0, 4, trainings);
            let gpu_total = study_ms(gpu, WEBGPU_PARALLEL, trainings);
            let expected = if gpu_total < cpu_total {
                DeviceKind::WebGpu
            } else {
                DeviceKind::Cpu
            };
            assert_eq!(
                choice.device,
                Some(expected),
                "{trainings} trainings, WebGPU {gpu} ms: {}",
                choice.reason
            );
        }
    }
}

#[test]
fn the_cpu_counts_its_workers_webgpu_trains_one_at_a_time() {
    // WebGPU 2× faster per iteration, but 4 CPU workers train 4 at once.
    assert_eq!(study_ms(30.0, 4, 6), 60.0);
    assert_eq!(study_ms(15.0, WEBGPU_PARALLEL, 6), 90.0);
    let choice = choose(&ms(30.0), &ms(15.0), 4, 6, Preference::Auto);
    assert_eq!(choice.device, Some(DeviceKind::Cpu), "{}", choice.reason);
    assert!(
        choice.reason.contains("4 workers at once"),
        "{}",
        choice.reason
    );
    assert!(choice.reason.contains("1.5×"), "{}", choice.reason);
    // One training: the faster iteration wins.
    let one = choose(&ms(30.0), &ms(15.0), 4, 1, Preference::Auto);
    assert_eq!(one.device, Some(DeviceKind::WebGpu), "{}", one.reason);
    assert!(one.reason.contains("2.0× sooner"), "{}", one.reason);
}

#[test]
fn a_forced_slow_webgpu_gives_the_cpu_a_fast_one_webgpu() {
    let probe = |gpu: f64| DeviceProbe {
        cpu: ms(30.0),
        cpu_self_check: "6/6 checks passed".into(),
        webgpu: ms(gpu),
        adapter: Some("nvidia".into()),
        webgpu_self_check: Some("6/6 checks passed".into()),
        flops_per_iteration: 3e8,
        data_rate: None,
        webgpu_members: 1,
        complete: true,
    };
    // Fast: 1 ms vs 30 ms on one worker.
    let fast = probe(1.0);
    let choice = choose(&fast.cpu, &fast.webgpu, 1, 6, Preference::Auto);
    assert_eq!(choice.device, Some(DeviceKind::WebGpu), "{}", choice.reason);
    // The same WebGPU forced 100× slower: the CPU.
    let slow = probe(1.0).slowed(Some(Slowdown::parse("webgpu:100").expect("parses")));
    assert_eq!(slow.webgpu, ms(100.0));
    let choice = choose(&slow.cpu, &slow.webgpu, 1, 6, Preference::Auto);
    assert_eq!(choice.device, Some(DeviceKind::Cpu), "{}", choice.reason);
    assert!(choice.reason.contains("3.3×"), "{}", choice.reason);
    // A slow WebGPU, the CPU forced 10× slower: WebGPU.
    let slowed_cpu = probe(60.0).slowed(Some(Slowdown::parse("cpu:10").expect("parses")));
    let choice = choose(&slowed_cpu.cpu, &slowed_cpu.webgpu, 1, 6, Preference::Auto);
    assert_eq!(choice.device, Some(DeviceKind::WebGpu), "{}", choice.reason);
    // The FLOP rate follows the (slowed) time.
    let rate = |device| slow.flop_rate(device).expect("timed");
    assert!((rate(DeviceKind::WebGpu) / 3e9 - 1.0).abs() < 1e-12);
    assert!((rate(DeviceKind::Cpu) / 1e10 - 1.0).abs() < 1e-12);
}

#[test]
fn a_missing_or_failed_device_falls_back() {
    let missing = choose(
        &ms(30.0),
        &unavailable("navigator.gpu is missing"),
        3,
        6,
        Preference::Auto,
    );
    assert_eq!(missing.device, Some(DeviceKind::Cpu));
    assert_eq!(
        missing.reason,
        "the CPU: WebGPU is unavailable (navigator.gpu is missing)"
    );
    let late = choose(&ms(30.0), &timed_out(), 3, 6, Preference::Auto);
    assert_eq!(late.device, Some(DeviceKind::Cpu));
    assert!(late.reason.contains("timed out"), "{}", late.reason);
    let broken_cpu = choose(
        &unavailable("wrong sums"),
        &ms(500.0),
        3,
        6,
        Preference::Auto,
    );
    assert_eq!(broken_cpu.device, Some(DeviceKind::WebGpu));
    let untimed_gpu_only = choose(
        &unavailable("wrong sums"),
        &timed_out(),
        3,
        6,
        Preference::Auto,
    );
    assert_eq!(untimed_gpu_only.device, Some(DeviceKind::WebGpu));
    let none = choose(&unavailable("a"), &unavailable("b"), 3, 6, Preference::Auto);
    assert_eq!(none.device, None);
    assert_eq!(none.reason, "no device can train: CPU a; WebGPU b");
}

#[test]
fn the_preference_overrides_the_measurement() {
    // ?device=cpu: the CPU even beside a far faster WebGPU (not probed in practice).
    let cpu = choose(&ms(30.0), &ms(1.0), 1, 6, Preference::Cpu);
    assert_eq!(cpu.device, Some(DeviceKind::Cpu));
    // ?device=webgpu: WebGPU even when slower, and the reason says it measured slower.
    let gpu = choose(&ms(30.0), &ms(300.0), 1, 6, Preference::WebGpu);
    assert_eq!(gpu.device, Some(DeviceKind::WebGpu));
    assert!(gpu.reason.contains("10.0× slower"), "{}", gpu.reason);
    let untimed = choose(&ms(30.0), &timed_out(), 1, 6, Preference::WebGpu);
    assert_eq!(untimed.device, Some(DeviceKind::WebGpu));
    assert!(untimed.reason.contains("timed out"), "{}", untimed.reason);
    // ?device=webgpu without WebGPU: the CPU, saying so.
    let fallback = choose(
        &ms(30.0),
        &unavailable("no adapter"),
        1,
        6,
        Preference::WebGpu,
    );
    assert_eq!(fallback.device, Some(DeviceKind::Cpu));
    assert!(
        fallback.reason.contains("unavailable (no adapter)"),
        "{}",
        fallback.reason
    );
}

#[test]
fn the_cpu_trains_while_webgpu_is_still_being_measured() {
    let measuring = unavailable(STILL_MEASURING);
    for preference in [Preference::Auto, Preference::WebGpu] {
        let choice = choose(&ms(30.0), &measuring, 1, 6, preference);
        assert_eq!(choice.device, Some(DeviceKind::Cpu));
        assert_eq!(
            choice.reason,
            "the CPU while WebGPU is still being measured"
        );
    }
}

#[test]
fn url_values_parse_with_notices() {
    assert_eq!(Preference::parse(None), (Preference::Auto, None));
    assert_eq!(Preference::parse(Some("cpu")), (Preference::Cpu, None));
    assert_eq!(
        Preference::parse(Some("webgpu")),
        (Preference::WebGpu, None)
    );
    let (preference, notice) = Preference::parse(Some("gpu"));
    assert_eq!(preference, Preference::Auto);
    assert!(notice.expect("a notice").contains("?device=gpu"));
    assert_eq!(
        Slowdown::parse("webgpu:10"),
        Ok(Slowdown {
            device: DeviceKind::WebGpu,
            factor: 10.0
        })
    );
    for bad in ["webgpu", "gpu:10", "cpu:0", "cpu:-1", "cpu:x", "cpu:inf"] {
        assert!(Slowdown::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_probe_round_trips_through_json() {
    let probe = DeviceProbe {
        cpu: ms(31.5),
        cpu_self_check: "6/6 checks passed".into(),
        webgpu: timed_out(),
        adapter: Some("google / swiftshader".into()),
        webgpu_self_check: Some("6/6 checks passed".into()),
        flops_per_iteration: 2.2e8,
        data_rate: None,
        webgpu_members: 1,
        complete: true,
    };
    let json = serde_json::to_string(&probe).expect("serialises");
    let back: DeviceProbe = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, probe);
}
