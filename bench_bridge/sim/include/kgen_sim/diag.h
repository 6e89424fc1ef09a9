// kgen AscendC CPU emulator -- diagnostics that name the kernel source line.
//
// A diagnostic walks the call stack (glibc backtrace), resolves each frame with
// addr2line (the program is built with -g), skips frames inside the emulator's own
// headers and the C++ library, and reports the first frame in the user's source.
// Output: one human line on stderr, `file:line: error: message [code] (block N)`, and,
// when KGEN_DIAG_FILE is set, one JSON object per line appended to that file.
// Warnings are reported once per (code, source line) -- in host code once per (code, line, message);
// exit status 3 after the report, since hardware would have trapped or hung there.
#pragma once
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "kgen_sim/core.h"

namespace kgen {

inline constexpr int EXIT_KERNEL_ERROR = 3;

struct SourceLoc {
    std::string file;
    int line = 0;
    std::string function;
};

inline std::string emulator_root() {
    std::string f = __FILE__;  // .../include/kgen_sim/diag.h
    auto p = f.rfind("/kgen_sim/");
    return p == std::string::npos ? std::string("/nonexistent/") : f.substr(0, p + 1);
}

inline bool is_library_file(const std::string& file) {
    static const std::string root = emulator_root();
    if (file.empty() || file[0] == '?') return true;
    if (file[0] != '/') return true;  // relative paths are the C library's own sources (./nptl/...); user files are absolute
    if (file.compare(0, root.size(), root) == 0) return true;
    if (file.compare(0, 5, "/usr/") == 0) return true;
    return false;
}

/// Resolve one return address to (function, file, line) via addr2line; -i lists inlined frames
/// innermost first, and we keep the innermost frame that is user code.
inline bool resolve_frame_uncached(void* addr, SourceLoc* out);
/// resolve_frame, remembered per address: a kernel that warns in a loop asks for the same frames again,
/// and each lookup runs addr2line.
inline bool resolve_frame(void* addr, SourceLoc* out) {
    static std::mutex m;
    static std::map<void*, std::pair<bool, SourceLoc>> memo;
    {
        std::lock_guard<std::mutex> g(m);
        auto it = memo.find(addr);
        if (it != memo.end()) {
            if (it->second.first) *out = it->second.second;
            return it->second.first;
        }
    }
    SourceLoc loc;
    const bool ok = resolve_frame_uncached(addr, &loc);
    std::lock_guard<std::mutex> g(m);
    memo[addr] = {ok, loc};
    if (ok) *out = loc;
    return ok;
}
inline bool resolve_frame_uncached(void* addr, SourceLoc* out) {
    Dl_info info;
    if (!dladdr(addr, &info) || !info.dli_fname) return false;
    uintptr_t off = reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(info.dli_fbase) - 1;
    std::string exe = info.dli_fname;
    if (exe.empty() || exe.find('/') == std::string::npos) exe = "/proc/self/exe";
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' 0x%lx 2>/dev/null", exe.c_str(), static_cast<unsigned long>(off));
    FILE* p = popen(cmd, "r");
    if (!p) return false;
    // whole lines: template function names easily exceed any fixed buffer and would desynchronise
    // the (function, location) pairs
    auto read_line = [p](std::string& out) {
        out.clear();
        char chunk[1024];
        while (fgets(chunk, sizeof chunk, p)) {
            out += chunk;
            if (!out.empty() && out.back() == '\n') return true;
        }
        return !out.empty();
    };
    std::string fn, loc;
    bool found = false;
    while (read_line(fn) && read_line(loc)) {
        std::string l = loc;
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
        auto paren = l.find(" (discriminator");
        if (paren != std::string::npos) l = l.substr(0, paren);
        auto colon = l.rfind(':');
        if (colon == std::string::npos) continue;
        std::string file = l.substr(0, colon);
        int line = std::atoi(l.c_str() + colon + 1);
        if (!found && !is_library_file(file) && line > 0) {
            std::string f = fn;
            while (!f.empty() && f.back() == '\n') f.pop_back();
            *out = SourceLoc{file, line, f};
            found = true;
        }
    }
    pclose(p);
    return found;
}

/// The innermost user-source frame. `exact_pc` (a faulting instruction, from a crash handler) is
/// tried first: unlike the return addresses of the backtrace it must not be moved back a byte.
inline SourceLoc user_location(void* exact_pc = nullptr) {
    void* frames[64];
    int n = backtrace(frames, 64);
    SourceLoc loc;
    if (exact_pc && resolve_frame(static_cast<char*>(exact_pc) + 1, &loc)) return loc;
    for (int i = 1; i < n; ++i) {
        if (resolve_frame(frames[i], &loc)) return loc;
    }
    return SourceLoc{"<unknown>", 0, ""};
}

inline std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
                else o += c;
        }
    }
    return o;
}

inline std::mutex& diag_mutex() { static std::mutex m; return m; }

inline void report_at(const SourceLoc& loc, Severity sev, const char* code, const std::string& message);

/// Warnings whose source line is still being looked up. An error (which ends the run) waits for them, so a
/// warning raised first on one emulated core is printed before another core's error stops the program.
inline std::atomic<int>& warnings_in_flight() { static std::atomic<int> n{0}; return n; }

inline void report(Severity sev, const char* code, const std::string& message) {
    if (sev == Severity::Error) {
        for (int i = 0; i < 2000 && warnings_in_flight().load() > 0; ++i) usleep(5000);  // at most 10 s
        report_at(user_location(), sev, code, message);
        return;
    }
    if (sev == Severity::Warning && tls_core) {
        // a kernel warning is reported once per (code, line): a repeat from the same call stack (a warning
        // inside a loop) is dropped here, before the stack is resolved to a line
        void* frames[32];
        const int n = backtrace(frames, 32);
        std::string key(code);
        key.append(reinterpret_cast<const char*>(frames), sizeof(void*) * static_cast<size_t>(n));
        static std::mutex m;
        static std::set<std::string> stacks;
        std::lock_guard<std::mutex> g(m);
        if (!stacks.insert(key).second) return;
        ++warnings_in_flight();  // under the lock: an error checking the count sees this warning
    } else {
        ++warnings_in_flight();
    }
    report_at(user_location(), sev, code, message);
    --warnings_in_flight();
}

inline const char* sv_name(Severity sev) { return sev == Severity::Error ? "error" : "warning"; }

inline void report_at(const SourceLoc& loc, Severity sev, const char* code, const std::string& message) {
    std::lock_guard<std::mutex> g(diag_mutex());
    static std::set<std::string> seen;
    if (sev == Severity::Warning || tls_core) {
        // an error on an emulated core ends the run; the same error raised meanwhile on other cores (every core
        // runs the same code) is reported once, like a warning
        std::string key = std::string(sv_name(sev)) + ":" + code + "@" + loc.file + ":" + std::to_string(loc.line);
        // host code (no emulated core): two different findings of one line (two helper calls on it) are both
        // reported; only a repeat of the same message is dropped
        if (!tls_core) key += "|" + message;
        if (!seen.insert(key).second) return;
    }
    const char* sv = sv_name(sev);
    long long blk = tls_core ? static_cast<long long>(tls_core->block_idx) : -1;
    if (blk >= 0)
        fprintf(stderr, "%s:%d: %s: %s [%s] (block %lld)\n", loc.file.c_str(), loc.line, sv, message.c_str(), code, blk);
    else
        fprintf(stderr, "%s:%d: %s: %s [%s]\n", loc.file.c_str(), loc.line, sv, message.c_str(), code);
    fflush(stderr);
    if (const char* path = std::getenv("KGEN_DIAG_FILE")) {
        if (FILE* f = fopen(path, "a")) {
            fprintf(f, "{\"severity\":\"%s\",\"code\":\"%s\",\"file\":\"%s\",\"line\":%d,\"function\":\"%s\",\"block\":%lld,\"message\":\"%s\"}\n",
                    sv, code, json_escape(loc.file).c_str(), loc.line, json_escape(loc.function).c_str(), blk,
                    json_escape(message).c_str());
            fclose(f);
        }
    }
}

/// End the program after an error diagnostic: flush what the program printed, exit 3.
[[noreturn]] inline void abort_program() {
    fflush(stdout);
    fflush(stderr);
    _exit(EXIT_KERNEL_ERROR);
}

inline void crash_handler(int sig, siginfo_t*, void* context) {
    void* pc = nullptr;
#if defined(__x86_64__)
    if (context) pc = reinterpret_cast<void*>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    if (context) pc = reinterpret_cast<void*>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#endif
    const char* what = sig == SIGSEGV ? "segmentation fault (invalid memory access)"
                     : sig == SIGBUS  ? "bus error (misaligned or invalid memory access)"
                     : sig == SIGFPE  ? "arithmetic exception (integer division by zero?)"
                     : sig == SIGILL  ? "illegal instruction"
                                      : "abort";
    report_at(user_location(pc), Severity::Error, "kernel-crash", std::string("the program crashed: ") + what);
    abort_program();
}

/// Install crash handlers once per process so a crash becomes a located diagnostic.
inline void install_crash_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = crash_handler;
        sa.sa_flags = SA_RESETHAND | SA_SIGINFO;
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
        sigaction(SIGFPE, &sa, nullptr);
        sigaction(SIGILL, &sa, nullptr);
        sigaction(SIGABRT, &sa, nullptr);
    });
}

}  // namespace kgen
