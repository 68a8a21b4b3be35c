// md5_consts.vh: MD5 constants as constant functions (RFC 1321, section
// 3.4), included inside the modules that decide things per step at
// elaboration time (md5_step, md5_core, md5acc_jobconst).
// Messages are single blocks of at most 8 bytes: words 0 and 1 vary per
// value, words 2 and 14 depend on the width only (a job constant), every
// other word is zero.

// index of the message word step i reads
function integer md5_g(input integer i);
    case (i / 16)
        0: md5_g = i % 16;
        1: md5_g = (5 * i + 1) % 16;
        2: md5_g = (3 * i + 5) % 16;
        default: md5_g = (7 * i) % 16;
    endcase
endfunction

// left-rotation amount of step i
function integer md5_s(input integer i);
    case ((i / 16) * 4 + i % 4)
         0: md5_s = 7;   1: md5_s = 12;  2: md5_s = 17;  3: md5_s = 22;
         4: md5_s = 5;   5: md5_s = 9;   6: md5_s = 14;  7: md5_s = 20;
         8: md5_s = 4;   9: md5_s = 11; 10: md5_s = 16; 11: md5_s = 23;
        12: md5_s = 6;  13: md5_s = 10; 14: md5_s = 15; default: md5_s = 21;
    endcase
endfunction

// K[i] = floor(|sin(i + 1)| * 2^32)
function [31:0] md5_k(input integer i);
    case (i)
             0: md5_k = 32'hd76aa478;
             1: md5_k = 32'he8c7b756;
             2: md5_k = 32'h242070db;
             3: md5_k = 32'hc1bdceee;
             4: md5_k = 32'hf57c0faf;
             5: md5_k = 32'h4787c62a;
             6: md5_k = 32'ha8304613;
             7: md5_k = 32'hfd469501;
             8: md5_k = 32'h698098d8;
             9: md5_k = 32'h8b44f7af;
            10: md5_k = 32'hffff5bb1;
            11: md5_k = 32'h895cd7be;
            12: md5_k = 32'h6b901122;
            13: md5_k = 32'hfd987193;
            14: md5_k = 32'ha679438e;
            15: md5_k = 32'h49b40821;
            16: md5_k = 32'hf61e2562;
            17: md5_k = 32'hc040b340;
            18: md5_k = 32'h265e5a51;
            19: md5_k = 32'he9b6c7aa;
            20: md5_k = 32'hd62f105d;
            21: md5_k = 32'h02441453;
            22: md5_k = 32'hd8a1e681;
            23: md5_k = 32'he7d3fbc8;
            24: md5_k = 32'h21e1cde6;
            25: md5_k = 32'hc33707d6;
            26: md5_k = 32'hf4d50d87;
            27: md5_k = 32'h455a14ed;
            28: md5_k = 32'ha9e3e905;
            29: md5_k = 32'hfcefa3f8;
            30: md5_k = 32'h676f02d9;
            31: md5_k = 32'h8d2a4c8a;
            32: md5_k = 32'hfffa3942;
            33: md5_k = 32'h8771f681;
            34: md5_k = 32'h6d9d6122;
            35: md5_k = 32'hfde5380c;
            36: md5_k = 32'ha4beea44;
            37: md5_k = 32'h4bdecfa9;
            38: md5_k = 32'hf6bb4b60;
            39: md5_k = 32'hbebfbc70;
            40: md5_k = 32'h289b7ec6;
            41: md5_k = 32'heaa127fa;
            42: md5_k = 32'hd4ef3085;
            43: md5_k = 32'h04881d05;
            44: md5_k = 32'hd9d4d039;
            45: md5_k = 32'he6db99e5;
            46: md5_k = 32'h1fa27cf8;
            47: md5_k = 32'hc4ac5665;
            48: md5_k = 32'hf4292244;
            49: md5_k = 32'h432aff97;
            50: md5_k = 32'hab9423a7;
            51: md5_k = 32'hfc93a039;
            52: md5_k = 32'h655b59c3;
            53: md5_k = 32'h8f0ccc92;
            54: md5_k = 32'hffeff47d;
            55: md5_k = 32'h85845dd1;
            56: md5_k = 32'h6fa87e4f;
            57: md5_k = 32'hfe2ce6e0;
            58: md5_k = 32'ha3014314;
            59: md5_k = 32'h4e0811a1;
            60: md5_k = 32'hf7537e82;
            61: md5_k = 32'hbd3af235;
            62: md5_k = 32'h2ad7d2bb;
            63: md5_k = 32'heb86d391;
        default: md5_k = 32'h0;
    endcase
endfunction

// where M[g(i)] of step i comes from
localparam integer MD5_SRC_M0 = 0;     // word 0, per value
localparam integer MD5_SRC_M1 = 1;     // word 1, per value
localparam integer MD5_SRC_JOB = 2;    // word 2 or 14: K + M is a job constant
localparam integer MD5_SRC_ZERO = 3;   // zero: K + M = K
function integer md5_src(input integer i);
    case (md5_g(i))
        0: md5_src = MD5_SRC_M0;
        1: md5_src = MD5_SRC_M1;
        2, 14: md5_src = MD5_SRC_JOB;
        default: md5_src = MD5_SRC_ZERO;
    endcase
endfunction

// the 8 steps whose K + M is a job constant, numbered in step order
function integer md5_job_step(input integer j);
    integer i, n;
    begin
        md5_job_step = 0;
        n = 0;
        for (i = 0; i < 64; i = i + 1)
            if (md5_src(i) == MD5_SRC_JOB) begin
                if (n == j) md5_job_step = i;
                n = n + 1;
            end
    end
endfunction
localparam integer MD5_JOB_WORDS = 8;
function integer md5_job_index(input integer i);
    case (i)
             2: md5_job_index = 0;
            14: md5_job_index = 1;
            25: md5_job_index = 2;
            29: md5_job_index = 3;
            35: md5_job_index = 4;
            47: md5_job_index = 5;
            50: md5_job_index = 6;
            62: md5_job_index = 7;
        default: md5_job_index = 0;
    endcase
endfunction
