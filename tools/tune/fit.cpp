#include "fit.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace branan::tune {

double sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

namespace {

// log(1 + e^x) without overflow.
double softplus(double x) {
    return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x)));
}

void chunk(const TraceSet& set, size_t from, size_t to, const Weights& w, double k, bool want_grad,
           bool use_result, LossGrad& out) {
    const double limit = VALUE_EVAL_MAX;
    for (size_t i = from; i < to; ++i) {
        double e = set.raw_eval(i, w);
        const bool clamped = e > limit || e < -limit;
        if (clamped) {
            e = e > 0 ? limit : -limit;
            ++out.clamped;
        }
        const double t = use_result ? set.result[i] : set.target[i];
        const double x = k * e;
        // -(t log p + (1 - t) log(1 - p)) with p = sigmoid(x)
        out.loss += softplus(x) - t * x;
        if (!want_grad || clamped) continue;
        const double g = k * (sigmoid(x) - t);
        for (uint32_t j = set.begin[i]; j < set.begin[i + 1]; ++j)
            out.grad[set.entries[j].id] += g * set.entries[j].coef;
    }
}

} // namespace

LossGrad loss_and_gradient(const TraceSet& set, const Weights& w, double k, int threads,
                           bool want_grad, bool use_result) {
    const size_t n = set.size();
    LossGrad total;
    if (n == 0) return total;
    threads = std::max(1, std::min<int>(threads, int(n / 1024) + 1));
    std::vector<LossGrad> parts(threads);
    if (threads == 1) {
        chunk(set, 0, n, w, k, want_grad, use_result, parts[0]);
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                chunk(set, n * t / threads, n * (t + 1) / threads, w, k, want_grad, use_result,
                      parts[t]);
            });
        for (auto& th : pool) th.join();
    }
    for (const LossGrad& p : parts) {
        total.loss += p.loss;
        total.clamped += p.clamped;
        for (int i = 0; i < PARAM_COUNT; ++i) total.grad[i] += p.grad[i];
    }
    total.loss /= double(n);
    for (double& g : total.grad) g /= double(n);
    return total;
}

double loss(const TraceSet& set, const Weights& w, double k, int threads, bool use_result) {
    return loss_and_gradient(set, w, k, threads, false, use_result).loss;
}

LossGrad objective(const TraceSet& set, const Weights& w, double k, int threads,
                   const L2Penalty& penalty) {
    LossGrad lg = loss_and_gradient(set, w, k, threads, true);
    lg.loss += penalty.value(w);
    penalty.add_gradient(w, lg.grad);
    return lg;
}

double fit_k(const TraceSet& set, const Weights& w, int threads) {
    auto f = [&](double log_k) { return loss(set, w, std::exp(log_k), threads, true); };
    double a = std::log(K_MIN), b = std::log(K_MAX);
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = f(c), fd = f(d);
    while (b - a > 1e-4) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
    }
    return std::exp((a + b) / 2);
}

FitResult fit_weights(const TraceSet& train, const TraceSet* validation, const Weights& start,
                      double k, const FitOptions& options, const EpochReport& report) {
    const auto& table = param_table();
    const bool validate = validation && validation->size();
    auto validation_loss = [&](const Weights& w) {
        return validate ? loss(*validation, w, k, options.threads) : std::nan("");
    };
    const L2Penalty penalty{options.l2, start, train.size()};
    FitResult r;
    r.weights = start;
    r.start_validation = r.best_validation = validation_loss(start);
    Weights w = start, m{}, v{};
    constexpr double BETA1 = 0.9, BETA2 = 0.999, EPS = 1e-8;
    double b1 = 1, b2 = 1;
    // The validation loss of the weights after `steps` epochs' steps.
    auto consider = [&](int steps, double val) {
        if (!validate || val < r.best_validation) {
            r.best_validation = val;
            r.best_epoch = steps;
            r.weights = w;
        }
    };
    for (int epoch = 1; epoch <= options.epochs; ++epoch) {
        const LossGrad lg = objective(train, w, k, options.threads, penalty);
        // The cross-entropy alone is reported (comparable with validation).
        const double val = epoch == 1 ? r.start_validation : validation_loss(w);
        if (report) report(epoch, lg.loss - penalty.value(w), val);
        consider(epoch - 1, val);
        if (validate && options.patience > 0 && epoch - 1 - r.best_epoch >= options.patience) break;
        const double progress = options.epochs > 1 ? double(epoch - 1) / (options.epochs - 1) : 1;
        const double lr = options.lr * (0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * progress)));
        b1 *= BETA1;
        b2 *= BETA2;
        for (int i = 0; i < PARAM_COUNT; ++i) {
            if (options.frozen[i]) continue;
            const double g = lg.grad[i];
            m[i] = BETA1 * m[i] + (1 - BETA1) * g;
            v[i] = BETA2 * v[i] + (1 - BETA2) * g * g;
            const double mh = m[i] / (1 - b1), vh = v[i] / (1 - b2);
            w[i] -= lr * mh / (std::sqrt(vh) + EPS);
            w[i] = std::clamp(w[i], double(table[i].min), double(table[i].max));
        }
        r.epochs_run = epoch;
    }
    if (r.epochs_run == options.epochs) consider(options.epochs, validation_loss(w));
    r.rounded = round_weights(r.weights);
    r.rounded_validation = validation_loss(to_weights(r.rounded));
    // Rounding can cost a little: never return more validation loss than
    // the start's.
    if (validate && !(r.rounded_validation < r.start_validation)) {
        r.rounded = round_weights(start);
        r.rounded_validation = r.start_validation;
        r.start_kept = true;
    }
    return r;
}

EvalParams round_weights(const Weights& w) {
    const auto& table = param_table();
    EvalParams p;
    for (int i = 0; i < PARAM_COUNT; ++i)
        p.w[i] = std::clamp(int(std::lround(w[i])), table[i].min, table[i].max);
    return p;
}

} // namespace branan::tune
