/* json.cpp - see json.h: nlohmann-json's SAX events into a VqJson tree. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "c_locale.h"
#include "json.h"

namespace {

constexpr size_t kMaxDepth = 1000;

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(malloc(s.size() + 1));
    if (!p)
        throw std::bad_alloc();
    memcpy(p, s.data(), s.size());
    p[s.size()] = 0;
    return p;
}

void free_children(VqJson *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_children(&v->item[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->item);
    free(v->key);
    free(v->str);
}

class Builder : public nlohmann::json_sax<nlohmann::json> {
public:
    VqJson root{};
    std::string error;

    ~Builder()
    {
        for (Open &o : stack_) {
            for (VqJson &c : o.items)
                free_children(&c);
            for (char *k : o.keys)
                free(k);
        }
        free_children(&root);
    }

    bool null() override { return leaf(VQ_JSON_NULL, nullptr, 0, 0.0); }
    bool boolean(bool v) override { return leaf(v ? VQ_JSON_TRUE : VQ_JSON_FALSE, nullptr, 0, 0.0); }
    bool number_integer(number_integer_t v) override { return number(v == 0 ? "-0" : std::to_string(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(std::to_string(v)); }
    bool number_float(number_float_t, const string_t &s) override
    {
        std::string t = s;  /* nlohmann wrote the locale's decimal point: back to '.' ("C") */
        for (char &c : t)
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E'))
                c = '.';
        return number(t);
    }
    bool string(string_t &s) override { return leaf(VQ_JSON_STRING, dup(s), s.size(), 0.0); }
    bool binary(binary_t &) override { return fail("binary value"); }
    bool start_object(std::size_t) override { return open(VQ_JSON_OBJECT); }
    bool key(string_t &k) override
    {
        stack_.back().keys.push_back(dup(k));
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(VQ_JSON_ARRAY); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &ex) override
    {
        return fail(ex.what());
    }

private:
    struct Open {
        VqJsonType type;
        std::vector<VqJson> items;
        std::vector<char *> keys;
    };
    std::vector<Open> stack_;

    bool fail(const std::string &msg)
    {
        if (error.empty())
            error = msg;
        return false;
    }

    void put(const VqJson &v)
    {
        if (stack_.empty())
            root = v;
        else
            stack_.back().items.push_back(v);
    }

    bool leaf(VqJsonType t, char *str, size_t len, double number)
    {
        VqJson v{};
        v.type = t;
        v.str = str;
        v.len = len;
        v.number = number;
        put(v);
        return true;
    }

    bool number(const std::string &text)
    {
        return leaf(VQ_JSON_NUMBER, dup(text), text.size(), vq_strtod_c(text.c_str(), nullptr));
    }

    bool open(VqJsonType t)
    {
        if (stack_.size() >= kMaxDepth)
            return fail("nested deeper than 1000 levels");
        stack_.push_back(Open{ t, {}, {} });
        return true;
    }

    bool close()
    {
        Open &o = stack_.back();
        VqJson v{};
        v.type = o.type;
        v.n = o.items.size();
        v.item = static_cast<VqJson *>(calloc(v.n ? v.n : 1, sizeof(VqJson)));
        if (o.type == VQ_JSON_OBJECT)
            v.key = static_cast<char **>(calloc(v.n ? v.n : 1, sizeof(char *)));
        if (!v.item || (o.type == VQ_JSON_OBJECT && !v.key)) {
            free(v.item);
            free(v.key);
            throw std::bad_alloc();
        }
        if (v.n)
            memcpy(v.item, o.items.data(), v.n * sizeof(VqJson));
        if (o.type == VQ_JSON_OBJECT && v.n)
            memcpy(v.key, o.keys.data(), v.n * sizeof(char *));
        stack_.pop_back();
        put(v);
        return true;
    }
};

}  // namespace

extern "C" int vq_json_parse(const char *text, size_t len, VqJson **out, char *err, size_t errlen)
{
    *out = nullptr;
    try {
        Builder b;
        const bool ok = nlohmann::json::sax_parse(text, text + len, &b, nlohmann::json::input_format_t::json,
                                                  true, false);
        if (!ok) {
            if (err && errlen)
                snprintf(err, errlen, "%s", b.error.empty() ? "parse error" : b.error.c_str());
            return -1;
        }
        VqJson *r = static_cast<VqJson *>(malloc(sizeof(VqJson)));
        if (!r)
            throw std::bad_alloc();
        *r = b.root;
        b.root = VqJson{};
        *out = r;
        return 0;
    } catch (const std::exception &e) {
        if (err && errlen)
            snprintf(err, errlen, "%s", e.what());
        return -1;
    }
}

extern "C" void vq_json_free(VqJson *v)
{
    if (!v)
        return;
    free_children(v);
    free(v);
}

extern "C" const VqJson *vq_json_get(const VqJson *v, const char *key)
{
    if (!v || v->type != VQ_JSON_OBJECT)
        return nullptr;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->key[i], key))
            return &v->item[i];
    return nullptr;
}
